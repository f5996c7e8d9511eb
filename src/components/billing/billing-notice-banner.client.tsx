'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useAuthState } from '@/components/account/auth-state.client';
import { billingNoticeText } from '@/lib/billing-notice';
import styles from './billing.module.css';

/**
 * The site-wide billing notice under the header: a failed renewal (past_due) with its amount
 * and next retry date, or, once, that the reader's plan has ended. Pages are cached per
 * audience, so it comes from the reader's own state (/api/me), never from the page's render.
 * The plans page says a failed renewal there in full, with the button to fix the card.
 */
export function BillingNoticeBanner() {
  const { billingNotice } = useAuthState();
  const pathname = usePathname();
  if (!billingNotice) return null;
  if (billingNotice.kind === 'past_due' && pathname === '/service-plans') return null;
  return (
    <aside
      aria-label={
        billingNotice.kind === 'past_due'
          ? 'お支払いについてのお知らせ'
          : 'プランについてのお知らせ'
      }
      className={styles.billingNotice}
    >
      <div className={styles.billingNoticeInner}>
        <p>
          {billingNoticeText(billingNotice)}
          <Link href="/service-plans" prefetch={false}>
            {billingNotice.kind === 'past_due'
              ? '料金プランのページで更新する'
              : '料金プランを見る'}
          </Link>
        </p>
      </div>
    </aside>
  );
}
