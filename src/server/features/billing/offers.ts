import 'server-only';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import type { OfferView } from '@/lib/billing/offer-terms';
import type { Db } from '@/server/platform/db/client';
import { subscriptions } from '@/server/platform/db/schema';
import { customerIdOf } from './customers';
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
    if (!promotion || !coupon || typeof coupon === 'string') {
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
      (coupon.max_redemptions !== null && coupon.times_redeemed >= coupon.max_redemptions);
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
