import { notFound, redirect } from 'next/navigation';
import { CheckoutConfirmation } from '@/components/billing/checkout-confirmation';
import { toPlanView } from '@/components/billing/views';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import { env } from '@/env';
import { findPlan, isPlanKey } from '@/server/billing/catalogue';
import { hasLiveProviderPlan, trialDaysFor } from '@/server/billing/checkout';
import { getDb } from '@/server/db/client';
import { readFlash } from '@/server/http/read-flash';
import { requireUser } from '@/server/identity/session';

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
 * trial, decided by the same functions (src/server/billing/checkout.ts).
 */
export default async function ConfirmPage({ searchParams }: Props) {
  const { plan: key } = await searchParams;
  if (key === undefined) redirect('/service-plans');
  if (!isPlanKey(key)) notFound();
  const user = await requireUser(`/service-plans/confirm?plan=${key}`);
  const db = await getDb();
  // One live plan at a time: changing plan is the portal's job.
  if (await hasLiveProviderPlan(db, user.id)) redirect('/service-plans?notice=subscribed');
  const [plan, trialDays, flash] = await Promise.all([
    findPlan(db, key),
    trialDaysFor(db, user.id),
    readFlash(),
  ]);
  if (!plan?.active) redirect('/service-plans');
  return (
    <CheckoutConfirmation
      plan={toPlanView(plan)}
      trialDays={trialDays}
      trialOffered={env().BILLING_TRIAL_DAYS > 0}
      now={new Date()}
      errorMessage={flash?.message ?? Object.values(flash?.fieldErrors ?? {})[0] ?? null}
    />
  );
}
