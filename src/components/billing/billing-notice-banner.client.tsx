'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useAuthState } from '@/components/account/auth-state.client';
import styles from './billing.module.css';

export const BILLING_NOTICE_TEXT = 'お支払いが確認できません。カード情報を更新してください。';

/**
 * The site-wide notice of a failed renewal (past_due), under the header. Pages are cached per
 * audience, so it comes from the reader's own state (/api/me), never from the page's render.
 * The plans page says it there in full, with the button to fix the card.
 */
export function BillingNoticeBanner() {
  const { billingNotice } = useAuthState();
  const pathname = usePathname();
  if (billingNotice !== 'past_due' || pathname === '/service-plans') return null;
  return (
    <aside aria-label="お支払いについてのお知らせ" className={styles.billingNotice}>
      <div className={styles.billingNoticeInner}>
        <p>
          {BILLING_NOTICE_TEXT}
          <Link href="/service-plans" prefetch={false}>
            料金プランのページで更新する
          </Link>
        </p>
      </div>
    </aside>
  );
}
