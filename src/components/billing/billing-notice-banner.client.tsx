'use client';

import { usePathname } from 'next/navigation';
import { useAuthState } from '@/components/account/auth-state.client';
import { BillingNoticeMessage, billingNoticeLabel } from './billing-notice-message';
import styles from './billing.module.css';

/**
 * The site-wide billing notice under the header: a failed renewal (past_due) with its amount
 * and next retry date, or, once, that the reader's plan has ended or that a second plan was
 * taken back. Pages are cached per audience, so it comes from the reader's own state (/api/me),
 * never from the page's render. The plans page says a failed renewal there in full, with the
 * button to fix the card, and the account hub says it at its top; a one-time notice the hub
 * showed is not handed out again, so the banner shows only another one there.
 */

/** Pages that state a failed renewal themselves. */
const SAYS_PAST_DUE = new Set(['/service-plans', '/account']);
export function BillingNoticeBanner() {
  const { billingNotice } = useAuthState();
  const pathname = usePathname();
  if (!billingNotice) return null;
  if (billingNotice.kind === 'past_due' && SAYS_PAST_DUE.has(pathname)) return null;
  return (
    <aside aria-label={billingNoticeLabel(billingNotice)} className={styles.billingNotice}>
      <div className={styles.billingNoticeInner}>
        <BillingNoticeMessage notice={billingNotice} />
      </div>
    </aside>
  );
}
