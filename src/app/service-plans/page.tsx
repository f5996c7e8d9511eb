import '@/styles/base';
import { type PlansViewer, PlansView } from '@/components/billing/plans-view';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { toCurrentPlanView, toPlanView } from '@/components/billing/views';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { listPlans } from '@/server/features/billing/catalogue';
import { hasLiveProviderPlan } from '@/server/features/billing/checkout';
import { billingSummaryFor } from '@/server/features/billing/reader-billing';
import { pastDueNoticeFor } from '@/server/features/billing/reader-notices';
import { getDb } from '@/server/platform/db/client';
import { getUser } from '@/server/features/identity/session';
import { lookUpOffer } from '@/server/features/billing/offers';
import { readOfferCode } from '@/lib/billing/offer-code';

// Rendered for each viewer (their plan, their trial), never cached or prerendered.
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: '料金プラン',
  description:
    '有料会員の月額プランと年額プランの料金（税込）、無料会員でできること、無料体験について。',
  path: '/service-plans',
});

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ServicePlansPage({ searchParams }: Props) {
  const [query, user, db] = await Promise.all([searchParams, getUser(), getDb()]);
  const offerCode = readOfferCode(query.offer);
  const [plans, summary, alreadySubscribed, found] = await Promise.all([
    listPlans(db),
    user ? billingSummaryFor(db, user.id) : null,
    // Sent back from the confirmation screen: said only when it is so.
    user && query.notice === 'subscribed' ? hasLiveProviderPlan(db, user.id) : false,
    lookUpOffer(db, offerCode, user ? { userId: user.id } : null),
  ]);
  const offerMessage =
    query.offer !== undefined && !offerCode
      ? 'クーポンコードの形式が正しくありません。通常の料金でお申し込みいただけます。'
      : found.state === 'invalid'
        ? found.message
        : null;
  // A failed renewal: what is owed and when the card is tried again (the banner's words).
  const pastDue =
    user && summary?.current?.status === 'past_due'
      ? await pastDueNoticeFor(db, user.id).catch(() => null)
      : null;
  const viewer: PlansViewer = summary
    ? {
        kind: 'member',
        trialDays: summary.trialDays,
        customerId: summary.customerId,
        current: summary.current ? toCurrentPlanView(summary.current) : null,
      }
    : { kind: 'anonymous', trialDays: env().BILLING_TRIAL_DAYS };
  return (
    <PlansView
      plans={plans.map(toPlanView)}
      viewer={viewer}
      alreadySubscribed={alreadySubscribed}
      pastDue={pastDue}
      offer={found.state === 'valid' ? found.offer : null}
      offerMessage={offerMessage}
      // The page the reader came from (a paywall): every plan button carries it on.
      next={safeNextPath(typeof query.next === 'string' ? query.next : undefined, env().SITE_URL)}
    />
  );
}
