'use client';

import { usePathname } from 'next/navigation';
import type { BillingNotice } from '@/lib/billing-notice';
import { BillingNoticeMessage, billingNoticeLabel } from './billing-notice-message';
import styles from './billing-notice.module.css';

/**
 * The billing notice's band under the header, as the server rendered it for its reader
 * (billing-notice-banner.tsx): here only to leave it out where the page itself says the same.
 * The account hub says every notice at its top (the same notice: the render shares it), and the
 * plans page says a failed renewal in full, with the button to fix the card. The layout stays
 * through client-side navigation, so this follows the path as it changes.
 */

/** Pages that say a notice themselves, and which kinds. */
const SAID_BY_THE_PAGE: Record<string, readonly NonNullable<BillingNotice>['kind'][]> = {
  '/account': ['past_due', 'plan_ended', 'duplicate_reversed'],
  '/service-plans': ['past_due'],
};

export function BillingNoticeBand({ notice }: { notice: NonNullable<BillingNotice> }) {
  const pathname = usePathname();
  if (SAID_BY_THE_PAGE[pathname]?.includes(notice.kind)) return null;
  return (
    <aside aria-label={billingNoticeLabel(notice)} className={styles.billingNotice}>
      <div className={styles.billingNoticeInner}>
        <BillingNoticeMessage notice={notice} />
      </div>
    </aside>
  );
}
