'use client';

import { lazy, Suspense, useId } from 'react';
import { signInHref, signUpHref } from '@/components/layout/sign-in-links';
import { ButtonLink } from '@/components/ui/button';
import styles from './sign-in-prompt.module.css';

// The dialog's code loads on the first anonymous click, not with every list of cards.
const Modal = lazy(() =>
  import('@/components/ui/modal.client').then((m) => ({ default: m.Modal })),
);

export const SIGN_IN_PROMPT_HEADING = 'ブックマークするにはログインしてください';

/**
 * Why a visitor's click on ブックマーク did nothing: bookmarks belong to members. Offers
 * sign-in and sign-up, both bringing the reader back to `returnTo`.
 */
export function SignInPrompt({
  open,
  onClose,
  returnTo,
}: {
  open: boolean;
  onClose: () => void;
  returnTo: string;
}) {
  const headingId = useId();
  const textId = useId();
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <Modal
        open
        onClose={onClose}
        labelledBy={headingId}
        describedBy={textId}
        className={styles.dialog}
      >
        <h2 id={headingId} className={styles.heading}>
          {/* Broken between phrases only, as the site's other headings (phrase-text.tsx). */}
          ブックマークするには
          <wbr />
          ログインしてください
        </h2>
        <p id={textId} className={styles.text}>
          ブックマークは会員の機能です。無料の会員登録で、気になる記事や動画、音声を保存して、あとからまとめて読み返せます。
        </p>
        <div className={styles.actions}>
          <ButtonLink href={signUpHref(returnTo)} color="yellow" fullWidth height={44}>
            無料で会員登録
          </ButtonLink>
          <ButtonLink href={signInHref(returnTo)} color="white" fullWidth height={44}>
            ログイン
          </ButtonLink>
        </div>
      </Modal>
    </Suspense>
  );
}
