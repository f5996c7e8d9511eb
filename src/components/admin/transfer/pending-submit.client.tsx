'use client';

import { type ReactNode, useEffect, useRef } from 'react';
import { SubmitButton } from '@/components/ui/button';
import { useLeavingState } from '@/components/ui/use-leaving-state.client';
import styles from '@/components/admin/users/users.module.css';

type Props = {
  children: ReactNode;
  /** Said (politely, to screen readers too) once the form is on its way. */
  pendingText: string;
};

/**
 * The submit button of a plain form that may take long (an archive of several hundred MB):
 * once submitted it shows a spinner and says what is happening, so nobody sends it twice or
 * leaves the page. Without JavaScript it is an ordinary submit button.
 */
export function PendingSubmit({ children, pendingText }: Props) {
  const ref = useRef<HTMLButtonElement>(null);
  // Back to this page from the browser's cache: the form is ready again.
  const [pending, setPending] = useLeavingState();

  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    const onSubmit = () => setPending(true);
    form.addEventListener('submit', onSubmit);
    return () => form.removeEventListener('submit', onSubmit);
  }, [setPending]);

  return (
    <>
      <SubmitButton ref={ref} loading={pending}>
        {children}
      </SubmitButton>
      <p className={styles.hint} role="status">
        {pending ? pendingText : ''}
      </p>
    </>
  );
}
