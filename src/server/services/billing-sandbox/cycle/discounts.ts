import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { StripeApiError, invalidRequest } from '../errors';
import { findAllObjects, findObject, findObjectForUpdate } from '../object-store';
import { insertObject, newObjectId, saveObject, type SandboxObject } from '../object-store';
import { COUPON_TYPE, type Coupon, couponRedeemable } from '../resources/coupons';
import { INVOICE_TYPE, addMonths } from './calendar';

/**
 * Discounts: a coupon or promotion code redeemed on a subscription, and what it takes off each
 * invoice. As on Stripe, the discount is the subscription's (`discounts: ['di_…']`) and applies
 * to its non-proration lines of the coupon's products: `once` to the first invoice with
 * something to discount, `repeating` to invoices made before its `end` (start + N months),
 * `forever` to every one. Line amounts stay the price's; the reduction is in each line's
 * `discount_amounts` and the invoice's `total_discount_amounts`, and the tax is counted on
 * what is left (docs/decisions: offers).
 */

export const DISCOUNT_TYPE = 'discount';
export const PROMOTION_CODE_TYPE = 'promotion_code';

export type PromotionCode = SandboxObject & {
  active: boolean;
  code: string;
  customer: string | null;
  expires_at: number | null;
  max_redemptions: number | null;
  times_redeemed: number;
  promotion: { type: 'coupon'; coupon: string };
  restrictions: {
    first_time_transaction: boolean;
    minimum_amount: number | null;
    minimum_amount_currency: string | null;
  };
};

/** What a coupon takes off `amount` of a price of `product` (0 when it does not apply). */
export function couponAmountOff(coupon: Coupon, amount: number, product: string): number {
  if (amount <= 0) return 0;
  if (coupon.applies_to && !coupon.applies_to.products.includes(product)) return 0;
  if (coupon.percent_off !== null) return Math.round((amount * coupon.percent_off) / 100);
  return Math.min(coupon.amount_off ?? 0, amount);
}

/** Whether the customer has paid anything or been invoiced before (Stripe's first-time rule). */
async function hasPriorTransactions(db: Db, customerId: string): Promise<boolean> {
  const paid = await findAllObjects(db, INVOICE_TYPE, [
    { field: 'customer', in: [customerId] },
    { field: 'status', in: ['paid'] },
  ]);
  return paid.length > 0;
}

export type Redemption = { coupon: Coupon; promotionCode: PromotionCode | null };

type RedeemTarget = {
  customer: string | null;
  /** Now, in real time (expiry and redeem_by are not moved by test clocks). */
  at: number;
  price: SandboxObject;
  param: string;
};

/**
 * The coupon a promotion code (or a coupon given directly) redeems for this purchase, or
 * Stripe's refusal: an unknown id (404), an inactive, expired or used-up code or coupon, a code
 * of another customer, a first-time code for a customer with prior transactions, a purchase
 * under the code's minimum, a coupon of another currency or for other products. With `lock`,
 * the code's and the coupon's rows stay held until the transaction ends (redeeming counts).
 */
export async function checkRedemption(
  db: Db,
  ids: { promotionCode?: string; coupon?: string },
  target: RedeemTarget,
  lock = false,
): Promise<Redemption> {
  const read = lock ? findObjectForUpdate : findObject;
  const { param, at, price } = target;
  let promotionCode: PromotionCode | null = null;
  let couponId = ids.coupon;
  if (ids.promotionCode) {
    promotionCode = (await read(db, PROMOTION_CODE_TYPE, ids.promotionCode)) as PromotionCode;
    if (!promotionCode) {
      throw new StripeApiError(
        404,
        'invalid_request_error',
        `No such promotion code: '${ids.promotionCode}'`,
        'resource_missing',
        param,
      );
    }
    couponId = promotionCode.promotion.coupon;
    if (!promotionCode.active) {
      throw invalidRequest(`The promotion code \`${promotionCode.code}\` is inactive.`, param);
    }
    if (promotionCode.expires_at !== null && at >= promotionCode.expires_at) {
      throw invalidRequest(
        `The promotion code \`${promotionCode.code}\` has expired.`,
        param,
        'coupon_expired',
      );
    }
    if (
      promotionCode.max_redemptions !== null &&
      promotionCode.times_redeemed >= promotionCode.max_redemptions
    ) {
      throw invalidRequest(
        `The promotion code \`${promotionCode.code}\` has reached its maximum number of redemptions.`,
        param,
      );
    }
    if (promotionCode.customer !== null && promotionCode.customer !== target.customer) {
      throw invalidRequest(
        `The promotion code \`${promotionCode.code}\` cannot be redeemed by this customer.`,
        param,
      );
    }
    const restrictions = promotionCode.restrictions;
    if (
      restrictions.first_time_transaction &&
      target.customer &&
      (await hasPriorTransactions(db, target.customer))
    ) {
      throw invalidRequest(
        `The promotion code \`${promotionCode.code}\` is only valid for first-time customers. This customer has prior transactions.`,
        param,
      );
    }
    if (
      restrictions.minimum_amount !== null &&
      (restrictions.minimum_amount_currency !== price.currency ||
        (price.unit_amount as number) < restrictions.minimum_amount)
    ) {
      throw invalidRequest(
        `The promotion code \`${promotionCode.code}\` requires a minimum amount of ${restrictions.minimum_amount} ${String(restrictions.minimum_amount_currency)}.`,
        param,
      );
    }
  }
  const coupon = (await read(db, COUPON_TYPE, couponId ?? '')) as Coupon | null;
  if (!coupon) {
    throw new StripeApiError(
      404,
      'invalid_request_error',
      `No such coupon: '${couponId ?? ''}'`,
      'resource_missing',
      param,
    );
  }
  if (!couponRedeemable(coupon, at)) {
    throw invalidRequest(`Coupon \`${coupon.id}\` is no longer valid.`, param, 'coupon_expired');
  }
  if (coupon.currency !== null && coupon.currency !== price.currency) {
    throw invalidRequest(
      `The coupon \`${coupon.id}\` is for ${coupon.currency}, but this purchase is in ${String(price.currency)}.`,
      param,
    );
  }
  if (coupon.applies_to && !coupon.applies_to.products.includes(String(price.product))) {
    throw invalidRequest(
      `The coupon \`${coupon.id}\` does not apply to any of the items in this purchase.`,
      param,
    );
  }
  return { coupon, promotionCode };
}

/**
 * Redeems: counts the redemption on the coupon and the code (rows held by checkRedemption's
 * lock) and makes the subscription's discount, starting at `at`.
 */
export async function redeem(
  db: Db,
  redemption: Redemption,
  owner: { customer: string; subscription: string; at: number },
): Promise<SandboxObject> {
  const { coupon, promotionCode } = redemption;
  await saveObject(db, { ...coupon, times_redeemed: coupon.times_redeemed + 1 });
  if (promotionCode) {
    await saveObject(db, { ...promotionCode, times_redeemed: promotionCode.times_redeemed + 1 });
  }
  const discount: SandboxObject = {
    id: newObjectId('di'),
    object: 'discount',
    checkout_session: null,
    created: owner.at,
    customer: owner.customer,
    customer_account: null,
    end:
      coupon.duration === 'repeating' ? addMonths(owner.at, coupon.duration_in_months ?? 0) : null,
    invoice: null,
    invoice_item: null,
    promotion_code: promotionCode?.id ?? null,
    source: { type: 'coupon', coupon: coupon.id },
    start: owner.at,
    subscription: owner.subscription,
    subscription_item: null,
  };
  await insertObject(db, DISCOUNT_TYPE, discount);
  return discount;
}

type DiscountLine = { amount: number; proration: boolean; price: SandboxObject };

export type AppliedDiscount = { discount: string; amounts: number[] };

/** Whether a `once` discount already took something off an invoice. */
async function alreadyUsed(db: Db, subscriptionId: string, discountId: string): Promise<boolean> {
  const invoices = await findAllObjects(db, INVOICE_TYPE, [
    { field: 'parent.subscription_details.subscription', in: [subscriptionId] },
  ]);
  return invoices.some((invoice) =>
    ((invoice.total_discount_amounts as { discount: string; amount: number }[]) ?? []).some(
      (entry) => entry.discount === discountId && entry.amount > 0,
    ),
  );
}

async function liveDiscount(
  db: Db,
  subscription: SandboxObject,
  at: number,
): Promise<{ discount: SandboxObject; coupon: Coupon } | null> {
  const id = (subscription.discounts as string[] | undefined)?.[0];
  if (!id) return null;
  const discount = await findObject(db, DISCOUNT_TYPE, id);
  const coupon = discount
    ? ((await findObject(
        db,
        COUPON_TYPE,
        (discount.source as { coupon: string }).coupon,
      )) as Coupon | null)
    : null;
  if (!discount || !coupon) return null;
  if (typeof discount.end === 'number' && at >= discount.end) return null;
  if (coupon.duration === 'once' && (await alreadyUsed(db, subscription.id, id))) return null;
  return { discount, coupon };
}

/** The subscription's discounts without the ones that have ended by `at` (Stripe drops them). */
export async function discountsStillLive(
  db: Db,
  subscription: SandboxObject,
  at: number,
): Promise<string[]> {
  const live = await liveDiscount(db, subscription, at);
  return live ? [live.discount.id] : [];
}

/** What the subscription's discount takes off each line of an invoice made at `at`. */
export async function discountLines(
  db: Db,
  subscription: SandboxObject,
  lines: DiscountLine[],
  at: number,
): Promise<AppliedDiscount | null> {
  const live = await liveDiscount(db, subscription, at);
  if (!live) return null;
  const { coupon } = live;
  let remaining = coupon.amount_off ?? Infinity;
  const amounts = lines.map((line) => {
    if (line.proration) return 0;
    const off = Math.min(
      remaining,
      couponAmountOff(coupon, line.amount, String(line.price.product)),
    );
    if (coupon.amount_off !== null) remaining -= off;
    return off;
  });
  return { discount: live.discount.id, amounts };
}
