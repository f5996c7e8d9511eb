import '@/styles/base';
import {
  type CheckoutStatusView,
  CheckoutStatus,
} from '@/components/billing/checkout-status.client';
import { redirect } from 'next/navigation';
import { GuestSignIn } from '@/components/billing/guest-sign-in';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { opensPaidItems, successPagePath } from '@/server/features/billing/billing-http';
import {
  type CheckoutOutcome,
  checkoutOutcome,
  checkoutReturnPath,
} from '@/server/features/billing/checkout';
import { guestCheckoutView, retrieveCheckout } from '@/server/features/billing/guest-checkout';
import { isGuestSession } from '@/server/features/billing/guest-records';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { getUser, requireUser } from '@/server/features/identity/session';

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

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/**
 * Where the return route (/api/billing/checkout-return, the provider's success_url) sends a
 * reader it cannot send straight back to the article: no `next`, a checkout still pending, a
 * second plan reversed, or a visitor's checkout paid with an address whose account must sign in
 * (docs/decisions/039-reader-path.md). The page applies nothing the route would not: a page sets
 * no cookies, so making and signing in accounts is the route's alone.
 */
export default async function CheckoutSuccessPage({ searchParams }: Props) {
  const query = await searchParams;
  const sessionId = (one(query.session_id) ?? '').slice(0, 300);
  // The page the reader came from (a paywall): where the path ends once the plan is recorded.
  const next = safeNextPath(one(query.next), env().SITE_URL);
  const here = successPagePath(sessionId, next);
  const back = checkoutReturnPath(encodeURIComponent(sessionId), next);
  const db = await getDb();
  const session = sessionId ? await retrieveCheckout(db, sessionId) : null;
  let outcome: CheckoutOutcome;
  const guest = !!session && isGuestSession(session);
  if (session && guest) {
    const view = await guestCheckoutView(db, session, await getUser());
    if (view.kind === 'sign-in')
      return <GuestSignIn email={view.email} back={back} flash={await readFlash()} />;
    outcome = view.kind === 'claimed' ? view.outcome : { state: view.kind };
  } else {
    const user = await requireUser(here);
    outcome = session ? await checkoutOutcome(db, user.id, sessionId) : { state: 'not-found' };
  }
  // Recorded and open: back to the article through the return route, which says so there.
  if (outcome.state === 'recorded' && opensPaidItems(outcome.status) && next !== '/')
    redirect(back);
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
      {initial.state === 'pending' && guest ? (
        // A visitor's checkout is finished by the return route (it may sign the browser in).
        <meta httpEquiv="refresh" content={`${REFRESH_SECONDS};url=${back}`} />
      ) : initial.state === 'pending' ? (
        // Only without JavaScript (the poller does it otherwise): look again in a moment.
        <noscript>
          <meta httpEquiv="refresh" content={`${REFRESH_SECONDS};url=${here}&tries=${tries + 1}`} />
        </noscript>
      ) : null}
      <CheckoutStatus
        sessionId={sessionId}
        initial={initial}
        reloadHref={here}
        nextHref={next === '/' ? undefined : back}
      />
    </>
  );
}
