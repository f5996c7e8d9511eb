import 'server-only';
import { AppError } from '@/lib/errors';
import { and, eq, inArray } from 'drizzle-orm';
import type Stripe from 'stripe';
import { env } from '@/env';
import { formatDateJa } from '@/lib/format';
import { type ContentRef, sourceMetadata } from '@/server/features/attribution';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { subscriptions } from '@/server/platform/db/schema';
import { type Plan, findPlan } from './catalogue';
import { confirmPath } from '@/lib/confirm-path';
import { type CustomerOwner, customerIdOf, ensureCustomer } from './customers';
import { chargesAt, wasReversedAsDuplicate } from './one-plan';
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
    readonly reason: 'unknown-plan' | 'already-subscribed' | 'offer-invalid' | 'purchase-refused',
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
  return !!customerId && (await chargesAt(db, customerId));
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

/**
 * Where the provider sends the reader once paid: the return route, which applies the checkout,
 * says so once on the page the reader came from and sends them there (billing-http.ts).
 */
export const CHECKOUT_RETURN_PATH = '/api/billing/checkout-return';

/** The return route for a session (`{CHECKOUT_SESSION_ID}` while the provider fills it in). */
export const checkoutReturnPath = (sessionId: string, next: string) =>
  `${CHECKOUT_RETURN_PATH}?session_id=${sessionId}${nextParam(next)}`;

export type CheckoutStart = { url: string; plan: Plan; trialDays: number; offer: string | null };

/**
 * The promotion code the checkout applies, checked again for this buyer (null: a visitor) and
 * plan: a code that has become unusable since the confirmation screen is refused with the
 * reason rather than dropped, so that nobody is charged other terms than the ones they confirmed.
 */
async function offerFor(
  db: Db,
  buyer: { userId: string } | null,
  plan: Plan,
  code: string | undefined,
) {
  const found = await lookUpOffer(db, code, buyer);
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

/** What a checkout sells, as the confirmation screen stated it: the plan, offer and trial. */
export type CheckoutTerms = {
  plan: Plan;
  offer: Awaited<ReturnType<typeof offerFor>>;
  trialDays: number;
};

/** The plan on sale under this key, or a refusal. */
export async function planOnSale(db: Db, planKey: PlanKey): Promise<Plan> {
  const plan = await findPlan(db, planKey);
  if (!plan?.active)
    throw new CheckoutRefused('unknown-plan', 'このプランは現在お申し込みいただけません。');
  return plan;
}

/**
 * The terms of a checkout for a reader, or for a visitor (`buyer` null: a new account's terms,
 * as the confirmation screen shows a visitor), decided by the server alone.
 */
export async function checkoutTerms(
  db: Db,
  buyer: { userId: string } | null,
  plan: Plan,
  offerCode?: string,
): Promise<CheckoutTerms> {
  const offer = await offerFor(db, buyer, plan, offerCode);
  // An offer replaces the trial: the confirmation screen states one set of terms, not both.
  const trialDays = offer
    ? 0
    : buyer
      ? await trialDaysFor(db, buyer.userId)
      : env().BILLING_TRIAL_DAYS;
  return { plan, offer, trialDays };
}

/**
 * The session's parameters both checkouts share (a member's, a visitor's): the line, the offer,
 * the trial, the metadata, the locale and where the reader returns. Who pays is the caller's.
 */
export function sessionParams(
  terms: CheckoutTerms,
  options: { next: string; metadata: Record<string, string>; source: ContentRef | null },
): Stripe.Checkout.SessionCreateParams {
  const { plan, offer, trialDays } = terms;
  const { SITE_URL } = env();
  return {
    mode: 'subscription',
    line_items: [{ price: plan.priceId, quantity: 1 }],
    ...(offer ? { discounts: [{ promotion_code: offer.promotionCodeId }] } : {}),
    subscription_data: {
      ...(trialDays > 0 ? { trial_period_days: trialDays } : {}),
      metadata: { ...options.metadata, ...sourceMetadata(options.source) },
    },
    metadata: options.metadata,
    locale: 'ja',
    success_url: `${SITE_URL}${checkoutReturnPath('{CHECKOUT_SESSION_ID}', options.next)}`,
    cancel_url: `${SITE_URL}${confirmPath(plan.key, options.next, offer?.code)}`,
  };
}

/** The audit line's detail of a checkout started. */
export const startDetail = (sessionId: string, terms: CheckoutTerms) => ({
  session: sessionId,
  plan: terms.plan.key,
  price: terms.plan.priceId,
  trialDays: terms.trialDays,
  offer: terms.offer
    ? { code: terms.offer.code, promotionCode: terms.offer.promotionCodeId }
    : null,
});

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
  const plan = await planOnSale(db, planKey);
  if ((await hasLiveProviderPlan(db, owner.id)) || (await chargingAtProvider(db, owner.id))) {
    throw new CheckoutRefused(
      'already-subscribed',
      'すでに有料プランをご利用中です。プランの変更は「プランの管理」からお手続きください。',
    );
  }
  const terms = await checkoutTerms(db, { userId: owner.id }, plan, offerCode);
  const customer = await ensureCustomer(db, owner);
  const { stripe } = await billingProvider(db);
  const session = await stripe.checkout.sessions.create({
    ...sessionParams(terms, { next, metadata: { userId: owner.id, plan: plan.key }, source }),
    customer,
    client_reference_id: owner.id,
  });
  if (!session.url) throw new Error('billing: the checkout session has no URL');
  await recordAudit(db, {
    actor: owner.id,
    action: 'billing.checkout.start',
    target: owner.id,
    ip,
    detail: startDetail(session.id, terms),
  });
  return { url: session.url, plan, trialDays: terms.trialDays, offer: terms.offer?.code ?? null };
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
  return recordedOutcome(db, subscriptionId, userId);
}

/**
 * A completed checkout's subscription for its reader, applied now if the webhook has not done
 * it yet (by the webhook's own code, so the event before or after changes nothing more).
 */
export async function recordedOutcome(
  db: Db,
  subscriptionId: string,
  userId: string,
): Promise<CheckoutOutcome> {
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

/**
 * What the page the reader returns to says once (a one-time notice, src/lib/http/flash.ts):
 * the plan has started, and until when its trial runs.
 */
export function planStartedNotice(outcome: CheckoutOutcome & { state: 'recorded' }): string {
  const started = `${outcome.planName || '有料プラン'}が始まりました。`;
  return outcome.status === 'trialing' && outcome.trialEnd
    ? `${started}無料期間は${formatDateJa(outcome.trialEnd)}までです。`
    : `${started}会員限定の記事をすべてお読みいただけます。`;
}
