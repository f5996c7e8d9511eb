import { Link } from '@/components/layout/site-link';
import { type BillingNotice, billingNoticeText } from '@/lib/billing-notice';

/** What the reader can do about each notice: the plans page, named for the step. */
const NEXT_STEP: Record<NonNullable<BillingNotice>['kind'], string> = {
  past_due: '料金プランのページで更新する',
  plan_ended: '料金プランを見る',
  duplicate_reversed: 'ご利用中のプランを見る',
};

/** The heading screen readers give a notice's region. */
export const billingNoticeLabel = (notice: NonNullable<BillingNotice>) =>
  notice.kind === 'past_due' ? 'お支払いについてのお知らせ' : 'プランについてのお知らせ';

/**
 * A billing notice in words with its one link: the same on the banner under the header and at
 * the top of the account hub (which renders it on the server, for readers without JavaScript).
 */
export function BillingNoticeMessage({ notice }: { notice: NonNullable<BillingNotice> }) {
  if (notice.kind === 'past_due' && notice.authenticationUrl) {
    // The provider's page (3-D Secure), not one of the site's: a plain link.
    return (
      <p>
        {billingNoticeText(notice)}
        <a href={notice.authenticationUrl}>本人認証を行う</a>
      </p>
    );
  }
  return (
    <p>
      {billingNoticeText(notice)}
      <Link href="/service-plans" prefetch={false}>
        {NEXT_STEP[notice.kind]}
      </Link>
    </p>
  );
}
