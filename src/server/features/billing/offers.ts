import 'server-only';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { OfferView } from '@/lib/billing/offer-terms';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { offerRedemptions, subscriptions } from '@/server/platform/db/schema';
import { customerIdOf } from './customers';
import { CHARGING_STATUSES } from './one-plan';
import { billingProvider } from './provider';

/**
 * Offers: the provider's promotion codes as a reader meets them (`/service-plans?offer=CODE`).
 * A code is looked up at the provider, through the SDK, each time a page or a checkout needs
 * it, and checked as the provider will check it at checkout (active, unexpired, under its cap,
 * first-time readers only, the plan's product), so that a page never shows a discount the
 * checkout would refuse. Only with `?offer=` does a page call the provider for a price.
 */

export type Offer = OfferView & { promotionCodeId: string };

export type OfferLookup =
  { state: 'valid'; offer: Offer } | { state: 'invalid'; message: string } | { state: 'none' };

const regular = '通常の料金でお申し込みいただけます。';

function refused(code: string, why: string): OfferLookup {
  return { state: 'invalid', message: `クーポンコード「${code}」は${why}${regular}` };
}

/**
 * The promotion code's metadata key for the cap the site keeps (offers made on the console):
 * completed checkouts counted here, not the provider's `max_redemptions`, whose count the
 * provider takes when a checkout's subscription starts, a failed or abandoned one included.
 */
export const SITE_CAP_KEY = 'site_max_redemptions';

/** The site's cap of a promotion code; null when it has none (uncapped, or capped by the provider). */
export function siteCapOf(metadata: Stripe.Metadata | null | undefined): number | null {
  const cap = Number(metadata?.[SITE_CAP_KEY]);
  return Number.isSafeInteger(cap) && cap > 0 ? cap : null;
}

export type RedemptionCount = { counted: number; overCap: number };

/** Completed checkouts per promotion code: those counted, and those past the cap. */
export async function redemptionCounts(
  db: Db,
  promotionCodeIds: readonly string[],
): Promise<Map<string, RedemptionCount>> {
  const out = new Map<string, RedemptionCount>(
    promotionCodeIds.map((id) => [id, { counted: 0, overCap: 0 }]),
  );
  if (promotionCodeIds.length === 0) return out;
  const rows = await db
    .select({
      id: offerRedemptions.promotionCodeId,
      counted: sql<number>`count(*) FILTER (WHERE ${offerRedemptions.counted})::int`,
      overCap: sql<number>`count(*) FILTER (WHERE NOT ${offerRedemptions.counted})::int`,
    })
    .from(offerRedemptions)
    .where(inArray(offerRedemptions.promotionCodeId, [...promotionCodeIds]))
    .groupBy(offerRedemptions.promotionCodeId);
  for (const row of rows)
    out.set(row.id, { counted: Number(row.counted), overCap: Number(row.overCap) });
  return out;
}

/** Whether the site's cap of the code is reached by completed checkouts. */
async function siteCapReached(db: Db, promotion: Stripe.PromotionCode): Promise<boolean> {
  const cap = siteCapOf(promotion.metadata);
  if (cap === null) return false;
  return ((await redemptionCounts(db, [promotion.id])).get(promotion.id)?.counted ?? 0) >= cap;
}

/** Whether the reader has held a plan here or been invoiced by the provider (Stripe's rule). */
async function hasPriorTransactions(db: Db, stripe: Stripe, userId: string): Promise<boolean> {
  const held = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .limit(1);
  if (held.length > 0) return true;
  const customerId = await customerIdOf(db, userId);
  if (!customerId) return false;
  const paid = await stripe.invoices.list({ customer: customerId, status: 'paid', limit: 1 });
  return paid.data.length > 0;
}

/**
 * The offer a code names for this reader (null: a visitor), or why it cannot be used, in
 * Japanese. Never throws for the reader's input: a provider failure is said as such.
 */
export async function lookUpOffer(
  db: Db,
  code: string | undefined,
  reader: { userId: string } | null,
  now = new Date(),
): Promise<OfferLookup> {
  if (code === undefined) return { state: 'none' };
  try {
    const { stripe } = await billingProvider(db);
    const found = await stripe.promotionCodes.list({
      code,
      active: true,
      limit: 1,
      expand: ['data.promotion.coupon'],
    });
    const promotion = found.data[0];
    const coupon = promotion?.promotion.coupon;
    if (!promotion) {
      // A code whose cap was reached is turned off (recordOfferRedemption): it says so.
      const ended = (await stripe.promotionCodes.list({ code, limit: 1 })).data[0];
      return ended && (await siteCapReached(db, ended))
        ? refused(code, '利用上限に達したため、ご利用いただけません。')
        : refused(code, '見つからないか、現在ご利用いただけません。');
    }
    if (!coupon || typeof coupon === 'string') {
      return refused(code, '見つからないか、現在ご利用いただけません。');
    }
    const seconds = Math.floor(now.getTime() / 1000);
    const expired =
      (promotion.expires_at !== null && seconds >= promotion.expires_at) ||
      (coupon.redeem_by !== null && seconds >= coupon.redeem_by);
    if (expired) return refused(code, '有効期限が切れています。');
    const usedUp =
      (promotion.max_redemptions !== null &&
        promotion.times_redeemed >= promotion.max_redemptions) ||
      (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions) ||
      (await siteCapReached(db, promotion));
    if (usedUp || !coupon.valid)
      return refused(code, '利用上限に達したため、ご利用いただけません。');
    if (coupon.currency !== null && coupon.currency !== 'jpy') {
      return refused(code, 'このサイトではご利用いただけません。');
    }
    const firstTimeOnly = promotion.restrictions.first_time_transaction;
    if (firstTimeOnly && reader && (await hasPriorTransactions(db, stripe, reader.userId))) {
      return refused(code, '初めて有料プランをお申し込みになる方だけがご利用いただけます。');
    }
    return {
      state: 'valid',
      offer: {
        code: promotion.code,
        promotionCodeId: promotion.id,
        name: coupon.name,
        percentOff: coupon.percent_off,
        amountOff: coupon.amount_off,
        duration: coupon.duration as Offer['duration'],
        durationInMonths: coupon.duration_in_months,
        firstTimeOnly,
        products: coupon.applies_to?.products ?? null,
      },
    };
  } catch (error) {
    console.error('[billing] the offer could not be looked up:', error);
    return {
      state: 'invalid',
      message: `クーポンコードを確認できませんでした。時間をおいてもう一度お試しください。${regular}`,
    };
  }
}

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

/**
 * Writes a completed checkout's redemption once: counted while the code is under its cap, else
 * kept past it. Under a lock of the code, so that completions at once, on any instance, are
 * counted one after the other. Null when the checkout was written before (a repeat).
 */
export async function claimRedemption(
  db: Db,
  redemption: { subscriptionId: string; promotionCodeId: string; cap: number | null },
): Promise<{ counted: boolean } | null> {
  const { subscriptionId, promotionCodeId, cap } = redemption;
  return db.transaction(async (tx) => {
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(${`offer-redemption:${promotionCodeId}`}))`,
    );
    const [{ counted = 0 } = {}] = await tx
      .select({ counted: sql<number>`count(*)::int` })
      .from(offerRedemptions)
      .where(
        and(
          eq(offerRedemptions.promotionCodeId, promotionCodeId),
          eq(offerRedemptions.counted, true),
        ),
      );
    const rows = await tx
      .insert(offerRedemptions)
      .values({ subscriptionId, promotionCodeId, counted: cap === null || Number(counted) < cap })
      .onConflictDoNothing()
      .returning({ counted: offerRedemptions.counted });
    return rows[0] ?? null;
  });
}

/**
 * A completed checkout's offer, counted (webhook.ts calls this when it applies a completed
 * checkout, from its event or the success page; safe to repeat). Only a completion counts: a
 * failed 3-D Secure attempt, a declined card or an abandoned checkout never reaches here.
 *
 * The cap holds under concurrency: the count and the row are written under a lock of the code
 * (two completions at once are decided one after the other, across instances). A checkout that
 * completes once the cap is reached (its payment was under way when the last slot went) is
 * honoured, not counted: the reader was charged the discounted price they confirmed, and the
 * discount stays for the charges the confirmation screen stated; it is recorded past the cap,
 * audited and shown on the console. Reaching the cap turns the code off at the provider, so a
 * checkout still open with it is refused at its card form (nothing charged) instead of
 * completing past the cap.
 */
export async function recordOfferRedemption(db: Db, subscriptionId: string): Promise<void> {
  // Our record, just synced: no discount, no offer (and no call to the provider).
  const [record] = await db
    .select({ discounts: subscriptions.discounts })
    .from(subscriptions)
    .where(eq(subscriptions.id, subscriptionId));
  if (!record || record.discounts.length === 0) return;
  const { stripe } = await billingProvider(db);
  const subscription = await stripe.subscriptions.retrieve(subscriptionId, {
    expand: ['discounts'],
  });
  // A second plan reversed at once (one-plan.ts) was refunded: it redeemed nothing.
  if (!CHARGING_STATUSES.includes(subscription.status)) return;
  const promotionCodeId = subscription.discounts
    .map((discount) => (typeof discount === 'string' ? null : idOf(discount.promotion_code)))
    .find((id) => id !== null);
  if (!promotionCodeId) return;
  const promotion = await stripe.promotionCodes.retrieve(promotionCodeId);
  const cap = siteCapOf(promotion.metadata);
  const added = await claimRedemption(db, { subscriptionId, promotionCodeId, cap });
  if (added && !added.counted) {
    console.warn(`[billing] offer ${promotion.code} redeemed past its cap by ${subscriptionId}`);
    await recordAudit(db, {
      actor: 'billing',
      action: 'offer-redeemed-past-cap',
      target: `promotion_code:${promotionCodeId}`,
      detail: { code: promotion.code, subscription: subscriptionId, cap },
    });
  }
  // Checked again on a repeat too, so that a provider failure here is mended by the retry.
  if (promotion.active && (await siteCapReached(db, promotion))) {
    await stripe.promotionCodes.update(promotionCodeId, { active: false });
    await recordAudit(db, {
      actor: 'billing',
      action: 'offer-deactivated',
      target: `promotion_code:${promotionCodeId}`,
      detail: { code: promotion.code, reason: 'cap-reached', cap },
    });
  }
}
