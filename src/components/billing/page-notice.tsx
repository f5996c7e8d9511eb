import type { ReactNode } from 'react';
import { Notice } from '@/components/account/account-page';
import styles from './billing.module.css';

/** A billing screen's message: the account screens' notice, with room for the buttons it holds. */
export function PageNotice({ tone, children }: { tone: 'info' | 'error'; children: ReactNode }) {
  return (
    <Notice tone={tone} className={styles.notice}>
      {children}
    </Notice>
  );
}

/** Why the offer code the reader came with cannot be used, where there is such a reason. */
export function OfferMessage({ message }: { message: string | null }) {
  return message ? (
    <PageNotice tone="info">
      <p>{message}</p>
    </PageNotice>
  ) : null;
}
