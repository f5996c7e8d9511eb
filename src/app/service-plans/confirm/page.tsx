import '@/styles/base';
import { notFound, redirect } from 'next/navigation';
import { CheckoutConfirmation } from '@/components/billing/checkout-confirmation';
import { GuestCheckoutForm } from '@/components/billing/guest-checkout-form';
import { toPlanView } from '@/components/billing/views';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { env } from '@/env';
import { safeNextPath } from '@/lib/safe-next';
import { findPlan } from '@/server/features/billing/catalogue';
import { hasLiveProviderPlan, trialDaysFor } from '@/server/features/billing/checkout';
import { confirmPath } from '@/lib/confirm-path';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { getUser } from '@/server/features/identity/session';
import { offerTerms } from '@/lib/billing/offer-terms';
import { lookUpOffer } from '@/server/features/billing/offers';
import { isPlanKey } from '@/lib/billing/plans';
import { readOfferCode } from '@/lib/billing/offer-code';

// The reader's own terms (their trial, today's date): never cached.
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: 'お申し込み内容の確認',
  path: '/service-plans/confirm',
  noIndex: true,
});

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/**
 * The final confirmation screen (特定商取引法 Article 12-6) before the provider's checkout.
 * The terms shown are the ones the checkout will use: the catalogue's price and the reader's
 * trial, decided by the same functions (src/server/features/billing/checkout.ts). A visitor reads the
 * same terms (a new account's trial) and gives only an e-mail address and the consent: the one
 * button goes on to the card form, and the account is made from the address once paid
 * (src/server/features/billing/guest-checkout.ts).
 */
export default async function ConfirmPage({ searchParams }: Props) {
  const { plan: key, next: rawNext, offer: rawOffer } = await searchParams;
  if (key === undefined) redirect('/service-plans');
  if (!isPlanKey(key)) notFound();
  const next = safeNextPath(typeof rawNext === 'string' ? rawNext : undefined, env().SITE_URL);
  const [user, db] = await Promise.all([getUser(), getDb()]);
  // One live plan at a time: changing plan is the portal's job.
  if (user && (await hasLiveProviderPlan(db, user.id)))
    redirect('/service-plans?notice=subscribed');
  const [plan, regularTrialDays, flash, found] = await Promise.all([
    findPlan(db, key),
    user ? trialDaysFor(db, user.id) : env().BILLING_TRIAL_DAYS,
    readFlash(),
    lookUpOffer(db, readOfferCode(rawOffer), user ? { userId: user.id } : null),
  ]);
  if (!plan?.active) redirect('/service-plans');
  // The offer's terms on this plan, or why the code cannot be used (then the regular terms).
  const terms = found.state === 'valid' ? offerTerms(found.offer, plan) : null;
  const offer =
    found.state === 'valid' && terms
      ? { code: found.offer.code, name: found.offer.name, terms }
      : null;
  const offerMessage =
    found.state === 'invalid'
      ? found.message
      : found.state === 'valid' && !terms
        ? `クーポンコード「${found.offer.code}」はこのプランには適用できません。通常の料金でお申し込みいただけます。`
        : null;
  // An offer replaces the trial (checkout.ts decides the same).
  const trialDays = offer ? 0 : regularTrialDays;
  const here = confirmPath(key, next, offer?.code);
  return (
    <CheckoutConfirmation
      plan={toPlanView(plan)}
      trialDays={trialDays}
      trialOffered={env().BILLING_TRIAL_DAYS > 0}
      now={new Date()}
      next={next}
      offer={offer}
      offerMessage={offerMessage}
      errorMessage={
        user ? (flash?.message ?? Object.values(flash?.fieldErrors ?? {})[0] ?? null) : null
      }
      signUp={
        user ? undefined : (
          <GuestCheckoutForm
            plan={key}
            next={next}
            offer={offer?.code}
            flash={flash}
            loginHref={`/login?next=${encodeURIComponent(here)}`}
          />
        )
      }
    />
  );
}
