import 'server-only';
import { AppError } from '@/lib/errors';
import { and, eq, inArray } from 'drizzle-orm';
import { env } from '@/env';
import { type ContentRef, sourceMetadata } from '@/server/features/attribution';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { subscriptions } from '@/server/platform/db/schema';
import { type Plan, findPlan } from './catalogue';
import { confirmPath } from '@/lib/confirm-path';
import { type CustomerOwner, customerIdOf, ensureCustomer } from './customers';
import { CHARGING_STATUSES, wasReversedAsDuplicate } from './one-plan';
import { billingProvider } from './provider';
import { offerTerms } from '@/lib/billing/offer-terms';
import { lookUpOffer } from './offers';
import { applyCompletedCheckout } from './webhook';
import { type PlanKey } from '@/lib/billing/plans';

/**
 * From the final confirmation screen to the provider's hosted checkout. The server decides
 * everything the reader pays for (price, trial), from the catalogue and the reader's history,
 * never from the form.
 */

export class CheckoutRefused extends AppError {
  constructor(
    readonly reason: 'unknown-plan' | 'already-subscribed' | 'offer-invalid',
    message: string,
  ) {
    super(message, { status: 409, code: `checkout-${reason}` });
    this.name = 'CheckoutRefused';
  }
}

const LIVE = ['active', 'trialing', 'past_due', 'unpaid', 'paused', 'incomplete'];

export async function hasLiveProviderPlan(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.provider, 'stripe'),
        inArray(subscriptions.status, LIVE),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * Whether the provider already charges the reader for a plan our records do not show yet (a
 * checkout completed moments ago, its events still on their way).
 */
async function chargingAtProvider(db: Db, userId: string): Promise<boolean> {
  const customerId = await customerIdOf(db, userId);
  if (!customerId) return false;
  const { stripe } = await billingProvider(db);
  const found = await stripe.subscriptions.list({ customer: customerId, limit: 10 });
  return found.data.some((subscription) => CHARGING_STATUSES.includes(subscription.status));
}

/**
 * Free days offered to this reader: BILLING_TRIAL_DAYS for one who never had any plan (no
 * record here, and no subscription at the provider, where a checkout just completed may not
 * have reached us yet), else 0 (SPEC §4: experiencedTrial, experiencedPaidPlan).
 */
export async function trialDaysFor(db: Db, userId: string): Promise<number> {
  const days = env().BILLING_TRIAL_DAYS;
  if (days === 0) return 0;
  const any = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .limit(1);
  if (any.length > 0) return 0;
  const customerId = await customerIdOf(db, userId);
  if (customerId) {
    const { stripe } = await billingProvider(db);
    const found = await stripe.subscriptions.list({
      customer: customerId,
      status: 'all',
      limit: 1,
    });
    if (found.data.length > 0) return 0;
  }
  return days;
}

const nextParam = (next: string) => (next === '/' ? '' : `&next=${encodeURIComponent(next)}`);

export type CheckoutStart = { url: string; plan: Plan; trialDays: number; offer: string | null };

/**
 * The promotion code the checkout applies, checked again for this reader and plan: a code
 * that has become unusable since the confirmation screen is refused with the reason rather
 * than dropped, so that nobody is charged other terms than the ones they confirmed.
 */
async function offerFor(db: Db, owner: CustomerOwner, plan: Plan, code: string | undefined) {
  const found = await lookUpOffer(db, code, { userId: owner.id });
  if (found.state === 'none') return null;
  if (found.state === 'invalid') throw new CheckoutRefused('offer-invalid', found.message);
  if (!offerTerms(found.offer, plan)) {
    throw new CheckoutRefused(
      'offer-invalid',
      `クーポンコード「${found.offer.code}」はこのプランには適用できません。`,
    );
  }
  return found.offer;
}

export async function startCheckout(
  db: Db,
  owner: CustomerOwner,
  planKey: PlanKey,
  ip: string | null,
  /** The page the reader came from (a safe local path): success and cancel return to it. */
  next = '/',
  /** Where the reader's path to payment started (analytics/attribution.ts), kept on the plan. */
  source: ContentRef | null = null,
  /** An offer's code (readOfferCode), confirmed on the final confirmation screen. */
  offerCode?: string,
): Promise<CheckoutStart> {
  const plan = await findPlan(db, planKey);
  if (!plan?.active)
    throw new CheckoutRefused('unknown-plan', 'このプランは現在お申し込みいただけません。');
  if ((await hasLiveProviderPlan(db, owner.id)) || (await chargingAtProvider(db, owner.id))) {
    throw new CheckoutRefused(
      'already-subscribed',
      'すでに有料プランをご利用中です。プランの変更は「プランの管理」からお手続きください。',
    );
  }
  const offer = await offerFor(db, owner, plan, offerCode);
  // An offer replaces the trial: the confirmation screen states one set of terms, not both.
  const trialDays = offer ? 0 : await trialDaysFor(db, owner.id);
  const customer = await ensureCustomer(db, owner);
  const { stripe } = await billingProvider(db);
  const { SITE_URL } = env();
  const session = await stripe.checkout.sessions.create({
    mode: 'subscription',
    customer,
    client_reference_id: owner.id,
    line_items: [{ price: plan.priceId, quantity: 1 }],
    ...(offer ? { discounts: [{ promotion_code: offer.promotionCodeId }] } : {}),
    subscription_data: {
      ...(trialDays > 0 ? { trial_period_days: trialDays } : {}),
      metadata: { userId: owner.id, plan: plan.key, ...sourceMetadata(source) },
    },
    metadata: { userId: owner.id, plan: plan.key },
    locale: 'ja',
    success_url: `${SITE_URL}/service-plans/checkout-success?session_id={CHECKOUT_SESSION_ID}${nextParam(next)}`,
    cancel_url: `${SITE_URL}${confirmPath(plan.key, next, offer?.code)}`,
  });
  if (!session.url) throw new Error('billing: the checkout session has no URL');
  await recordAudit(db, {
    actor: owner.id,
    action: 'billing.checkout.start',
    target: owner.id,
    ip,
    detail: {
      session: session.id,
      plan: plan.key,
      price: plan.priceId,
      trialDays,
      offer: offer ? { code: offer.code, promotionCode: offer.promotionCodeId } : null,
    },
  });
  return { url: session.url, plan, trialDays, offer: offer?.code ?? null };
}

export type CheckoutOutcome =
  | { state: 'recorded'; planName: string; status: string; trialEnd: Date | null }
  /** Completed while the reader had a plan: reversed (cancelled, refunded), see one-plan.ts. */
  | { state: 'duplicate' }
  | { state: 'pending' }
  | { state: 'not-found' };

/**
 * What the success page shows, and the reconciliation it does: a checkout the provider reports
 * complete is applied at once, by the same code as its webhook event (webhook.ts,
 * applyCompletedCheckout), so the reader who has just paid need not wait for the event; the
 * event, arriving before or after, changes nothing more. Only the reader the session was made
 * for (its client_reference_id and its customer are theirs) learns or applies anything.
 */
export async function checkoutOutcome(
  db: Db,
  userId: string,
  sessionId: string,
): Promise<CheckoutOutcome> {
  if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) return { state: 'not-found' };
  const { stripe } = await billingProvider(db);
  const session = await stripe.checkout.sessions.retrieve(sessionId).catch(() => null);
  if (!session || session.client_reference_id !== userId) return { state: 'not-found' };
  const customerId = typeof session.customer === 'string' ? session.customer : session.customer?.id;
  if (!customerId || customerId !== (await customerIdOf(db, userId))) return { state: 'not-found' };
  const subscriptionId =
    typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
  if (!subscriptionId || session.status !== 'complete') return { state: 'pending' };
  const recorded = async () => {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.id, subscriptionId), eq(subscriptions.userId, userId)));
    return row ?? null;
  };
  if (!(await recorded()) && !(await wasReversedAsDuplicate(db, subscriptionId))) {
    try {
      await applyCompletedCheckout(db, subscriptionId);
    } catch (error) {
      // The provider refused a step (a reversal, say): the webhook's retries finish the work.
      console.error('[billing] the checkout could not be applied from the success page:', error);
    }
  }
  if (await wasReversedAsDuplicate(db, subscriptionId)) return { state: 'duplicate' };
  const row = await recorded();
  if (!row) return { state: 'pending' };
  return { state: 'recorded', planName: row.planName, status: row.status, trialEnd: row.trialEnd };
}
