import {
  type CheckoutStatusView,
  CheckoutStatus,
} from '@/components/billing/checkout-status.client';
import { redirect } from 'next/navigation';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { PAID_STATUSES } from '@/lib/access/post-access';
import { checkoutOutcome } from '@/server/features/billing/checkout';
import { getDb } from '@/server/platform/db/client';
import { requireUser } from '@/server/features/identity/session';

// The reader's own checkout, as it stands now: never cached.
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: 'お申し込みの確認',
  path: '/service-plans/checkout-success',
  noIndex: true,
});

/** Without JavaScript the page refreshes itself while pending, this many times at most. */
const MAX_REFRESHES = 10;
const REFRESH_SECONDS = 3;

/** The access policy's own statuses: a plan awaiting authentication opens nothing yet. */
const opensPaidItems = (status: string) => (PAID_STATUSES as ReadonlySet<string>).has(status);

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

export default async function CheckoutSuccessPage({ searchParams }: Props) {
  const query = await searchParams;
  const sessionId = (one(query.session_id) ?? '').slice(0, 300);
  // The page the reader came from (a paywall): where the path ends once the plan is recorded.
  const next = safeNextPath(one(query.next), env().SITE_URL);
  const here = `/service-plans/checkout-success?session_id=${encodeURIComponent(sessionId)}${
    next === '/' ? '' : `&next=${encodeURIComponent(next)}`
  }`;
  const user = await requireUser(here);
  const outcome = sessionId
    ? await checkoutOutcome(await getDb(), user.id, sessionId)
    : ({ state: 'not-found' } as const);
  // Applied here if the webhook has not done it yet (checkoutOutcome reconciles with the
  // provider, for this reader only). Recorded and open: straight back to the article, in full.
  if (outcome.state === 'recorded' && opensPaidItems(outcome.status) && next !== '/')
    redirect(next);
  const tries = Math.min(
    MAX_REFRESHES,
    Math.max(0, Number.parseInt(one(query.tries) ?? '', 10) || 0),
  );
  const initial: CheckoutStatusView =
    outcome.state === 'recorded'
      ? { ...outcome, trialEnd: outcome.trialEnd?.toISOString() ?? null }
      : outcome.state === 'pending' && tries >= MAX_REFRESHES
        ? { state: 'timeout' }
        : outcome;
  return (
    <>
      {initial.state === 'pending' ? (
        // Only without JavaScript (the poller does it otherwise): look again in a moment.
        <noscript>
          <meta httpEquiv="refresh" content={`${REFRESH_SECONDS};url=${here}&tries=${tries + 1}`} />
        </noscript>
      ) : null}
      <CheckoutStatus
        sessionId={sessionId}
        initial={initial}
        reloadHref={here}
        nextHref={next === '/' ? undefined : next}
      />
    </>
  );
}
