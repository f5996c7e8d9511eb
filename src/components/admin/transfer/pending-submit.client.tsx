'use client';

import { type ReactNode, useEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
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
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const form = ref.current?.form;
    if (!form) return;
    const onSubmit = () => setPending(true);
    // Back to this page from the browser's cache: the form is ready again.
    const onShow = (event: PageTransitionEvent) => {
      if (event.persisted) setPending(false);
    };
    form.addEventListener('submit', onSubmit);
    window.addEventListener('pageshow', onShow);
    return () => {
      form.removeEventListener('submit', onSubmit);
      window.removeEventListener('pageshow', onShow);
    };
  }, []);

  return (
    <>
      <Button ref={ref} type="submit" color="black" width="auto" height={44} loading={pending}>
        {children}
      </Button>
      <p className={styles.hint} role="status">
        {pending ? pendingText : ''}
      </p>
    </>
  );
}
