import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { findObject, saveObject } from './object-store';
import { cardFields, pathOf, usePagesSandbox } from '@test-support/billing-sandbox-pages';
import { DAY } from '@test-support/unix-time';

/**
 * Coupons, promotion codes and discounted subscriptions through the official SDK: the codes'
 * rules and Stripe's refusals, a checkout with a code on the sandbox's page, and the invoices
 * of the months after it (test clocks) with the discount and the tax on what is charged.
 */

const SUCCESS_URL = 'https://axis.example.jp/welcome?session_id={CHECKOUT_SESSION_ID}';
const MONTH = 31 * DAY;

describe('billing sandbox coupons and promotion codes', () => {
  const pages = usePagesSandbox();
  let serial = 0;

  async function offer(
    coupon: Stripe.CouponCreateParams,
    code: Omit<Stripe.PromotionCodeCreateParams, 'promotion'> = {},
  ) {
    const made = await pages.stripe.coupons.create(coupon);
    const promotionCode = await pages.stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: made.id },
      code: `OFFER${++serial}`,
      ...code,
    });
    return { coupon: made, promotionCode };
  }

  /** A customer on a clock frozen now, paying `price` with the code on the checkout page. */
  async function subscribeWith(promotionCode: string, price = pages.monthly.id) {
    const start = Math.floor(Date.now() / 1000);
    const { clock, customer } = await pages.sandbox.clockedCustomer(start, null);
    const session = await pages.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      line_items: [{ price, quantity: 1 }],
      discounts: [{ promotion_code: promotionCode }],
      success_url: SUCCESS_URL,
    });
    const page = await pages.fetchPage(pathOf(session.url));
    const paid = await pages.postForm(pathOf(session.url), cardFields('4242424242424242'));
    expect(paid.status).toBe(303);
    const completed = await pages.stripe.checkout.sessions.retrieve(session.id);
    const subscription = await pages.stripe.subscriptions.retrieve(
      completed.subscription as string,
    );
    /** Moves the customer's clock to `seconds` after the purchase. */
    const advance = async (seconds: number) => {
      await pages.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + seconds });
    };
    const invoices = async () =>
      (await pages.stripe.invoices.list({ subscription: subscription.id, limit: 100 })).data
        .reverse()
        .map((invoice) => ({
          total: invoice.total,
          discount: invoice.total_discount_amounts?.[0]?.amount ?? 0,
          tax: invoice.total_taxes?.[0]?.amount ?? 0,
        }));
    return { session, page, subscription, customer, advance, invoices };
  }

  it('makes coupons as Stripe does and refuses what Stripe refuses', async () => {
    const coupon = await pages.stripe.coupons.create({
      percent_off: 50,
      duration: 'repeating',
      duration_in_months: 3,
      name: '3か月半額',
      max_redemptions: 10,
    });
    expect(coupon).toMatchObject({
      object: 'coupon',
      percent_off: 50,
      amount_off: null,
      duration: 'repeating',
      duration_in_months: 3,
      times_redeemed: 0,
      valid: true,
    });
    expect(await pages.stripe.coupons.retrieve(coupon.id)).toMatchObject({ name: '3か月半額' });
    // One at a time: a refusal made before the loop awaits it would be an unhandled rejection.
    const refused: Stripe.CouponCreateParams[] = [
      { percent_off: 10, amount_off: 100, currency: 'jpy' },
      { amount_off: 100 },
      { percent_off: 10, duration: 'repeating' },
      { percent_off: 120 },
      { percent_off: 10, duration: 'once', duration_in_months: 2 },
      { percent_off: 10, redeem_by: 1 },
    ];
    for (const params of refused) {
      await expect(pages.stripe.coupons.create(params)).rejects.toBeInstanceOf(
        Stripe.errors.StripeInvalidRequestError,
      );
    }
    await expect(
      pages.stripe.coupons.create({ percent_off: 10, id: coupon.id }),
    ).rejects.toMatchObject({ code: 'resource_already_exists' });
  });

  it('keeps codes unique regardless of case among active ones, and finds them by code', async () => {
    const { coupon, promotionCode } = await offer(
      { amount_off: 300, currency: 'jpy', redeem_by: Math.floor(Date.now() / 1000) + 10 * DAY },
      { code: 'Spring-2027', max_redemptions: 5 },
    );
    expect(promotionCode).toMatchObject({
      object: 'promotion_code',
      code: 'Spring-2027',
      active: true,
      promotion: { type: 'coupon', coupon: coupon.id },
      restrictions: { first_time_transaction: false, minimum_amount: null },
      times_redeemed: 0,
    });
    await expect(
      pages.stripe.promotionCodes.create({
        promotion: { type: 'coupon', coupon: coupon.id },
        code: 'SPRING-2027',
      }),
    ).rejects.toMatchObject({ param: 'code', type: 'StripeInvalidRequestError' });
    const found = await pages.stripe.promotionCodes.list({ code: 'spring-2027' });
    expect(found.data.map((code) => code.id)).toEqual([promotionCode.id]);
    const expanded = await pages.stripe.promotionCodes.retrieve(promotionCode.id, {
      expand: ['promotion.coupon'],
    });
    expect(expanded.promotion.coupon).toMatchObject({ id: coupon.id, amount_off: 300 });
    // Past the coupon's redeem_by, or above its cap: refused.
    await expect(
      pages.stripe.promotionCodes.create({
        promotion: { type: 'coupon', coupon: coupon.id },
        expires_at: Math.floor(Date.now() / 1000) + 20 * DAY,
      }),
    ).rejects.toMatchObject({ param: 'expires_at' });
    await expect(
      pages.stripe.promotionCodes.create({
        promotion: { type: 'coupon', coupon: coupon.id },
        code: 'bad code!',
      }),
    ).rejects.toMatchObject({ param: 'code' });
    // Deactivated, its code is free again.
    await pages.stripe.promotionCodes.update(promotionCode.id, { active: false });
    const again = await pages.stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: coupon.id },
      code: 'spring-2027',
    });
    expect(again.active).toBe(true);
    await expect(
      pages.stripe.promotionCodes.update(promotionCode.id, { active: true }),
    ).rejects.toMatchObject({ param: 'code' });
  });

  it('takes a once discount off the first invoice only, with the tax on what is charged', async () => {
    const { coupon, promotionCode } = await offer({ percent_off: 50, duration: 'once' });
    const bought = await subscribeWith(promotionCode.id);
    expect(bought.session).toMatchObject({
      amount_subtotal: 1100,
      amount_total: 550,
      total_details: { amount_discount: 550, amount_tax: 50 },
      discounts: [{ coupon: null, promotion_code: promotionCode.id }],
    });
    expect(bought.page.text).toContain('割引');
    expect(bought.page.text).toContain('¥550');
    expect(bought.subscription.discounts).toHaveLength(1);
    const first = await pages.stripe.invoices.retrieve(
      bought.subscription.latest_invoice as string,
    );
    expect(first).toMatchObject({
      subtotal: 1100,
      total: 550,
      amount_paid: 550,
      discounts: bought.subscription.discounts,
      total_discount_amounts: [{ amount: 550, discount: bought.subscription.discounts[0] }],
      total_taxes: [{ amount: 50, taxable_amount: 500 }],
      total_excluding_tax: 500,
    });
    expect(first.lines.data[0]).toMatchObject({
      amount: 1100,
      discount_amounts: [{ amount: 550 }],
      taxes: [{ amount: 50, taxable_amount: 500 }],
    });
    await bought.advance(MONTH + DAY);
    expect(await bought.invoices()).toEqual([
      { total: 550, discount: 550, tax: 50 },
      { total: 1100, discount: 0, tax: 100 },
    ]);
    const renewed = await pages.stripe.subscriptions.retrieve(bought.subscription.id);
    expect(renewed.discounts).toEqual([]);
    expect((await pages.stripe.promotionCodes.retrieve(promotionCode.id)).times_redeemed).toBe(1);
    expect((await pages.stripe.coupons.retrieve(coupon.id)).times_redeemed).toBe(1);
  });

  it('takes a repeating discount off N months of invoices, and a forever one off every year', async () => {
    const repeating = await offer({
      amount_off: 300,
      currency: 'jpy',
      duration: 'repeating',
      duration_in_months: 3,
    });
    const monthly = await subscribeWith(repeating.promotionCode.id);
    // The discount and its coupon expand as on Stripe (`discounts.source.coupon`).
    const expanded = await pages.stripe.subscriptions.retrieve(monthly.subscription.id, {
      expand: ['discounts.source.coupon'],
    });
    const start = monthly.subscription.start_date;
    expect(expanded.discounts).toEqual([
      expect.objectContaining({
        id: monthly.subscription.discounts[0],
        object: 'discount',
        promotion_code: repeating.promotionCode.id,
        source: {
          type: 'coupon',
          coupon: expect.objectContaining({
            id: repeating.coupon.id,
            object: 'coupon',
            amount_off: 300,
            percent_off: null,
            duration: 'repeating',
            duration_in_months: 3,
          }) as unknown,
        },
        start,
        end: expect.any(Number) as unknown,
        subscription: monthly.subscription.id,
      }),
    ]);
    await monthly.advance(4 * MONTH);
    expect(await monthly.invoices()).toEqual([
      { total: 800, discount: 300, tax: 72 },
      { total: 800, discount: 300, tax: 72 },
      { total: 800, discount: 300, tax: 72 },
      { total: 1100, discount: 0, tax: 100 },
      { total: 1100, discount: 0, tax: 100 },
    ]);

    const forever = await offer({ percent_off: 10, duration: 'forever' });
    const yearly = await subscribeWith(forever.promotionCode.id, pages.yearly.id);
    await yearly.advance(366 * DAY);
    await yearly.advance(2 * 366 * DAY);
    expect(await yearly.invoices()).toEqual([
      { total: 9900, discount: 1100, tax: 900 },
      { total: 9900, discount: 1100, tax: 900 },
      { total: 9900, discount: 1100, tax: 900 },
    ]);
  });

  it('refuses codes that are inactive, expired, used up, for first-time customers or other products', async () => {
    const session = (promotion_code: string, customer?: string) =>
      pages.stripe.checkout.sessions.create({
        mode: 'subscription',
        ...(customer ? { customer } : { customer_email: 'reader@example.jp' }),
        line_items: [{ price: pages.monthly.id, quantity: 1 }],
        discounts: [{ promotion_code }],
        success_url: SUCCESS_URL,
      });
    const param = 'discounts[0][promotion_code]';

    await expect(session('promo_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param,
    });
    const inactive = await offer({ percent_off: 10 });
    await pages.stripe.promotionCodes.update(inactive.promotionCode.id, { active: false });
    await expect(session(inactive.promotionCode.id)).rejects.toMatchObject({ param });

    const expiring = await offer(
      { percent_off: 10 },
      { expires_at: Math.floor(Date.now() / 1000) + DAY },
    );
    const stored = await findObject(pages.database.db, 'promotion_code', expiring.promotionCode.id);
    await saveObject(pages.database.db, { ...stored!, expires_at: 1 });
    await expect(session(expiring.promotionCode.id)).rejects.toMatchObject({
      param,
      code: 'coupon_expired',
    });

    const once = await offer({ percent_off: 10 }, { max_redemptions: 1 });
    await subscribeWith(once.promotionCode.id);
    await expect(session(once.promotionCode.id)).rejects.toMatchObject({ param });

    const firstTime = await offer(
      { percent_off: 10 },
      { restrictions: { first_time_transaction: true } },
    );
    const returning = await subscribeWith((await offer({ percent_off: 5 })).promotionCode.id);
    await expect(session(firstTime.promotionCode.id, returning.customer.id)).rejects.toMatchObject({
      param,
    });
    await expect(session(firstTime.promotionCode.id)).resolves.toMatchObject({ status: 'open' });

    const other = await pages.stripe.products.create({ name: 'ほかの商品' });
    const elsewhere = await offer({ percent_off: 10, applies_to: { products: [other.id] } });
    await expect(session(elsewhere.promotionCode.id)).rejects.toMatchObject({ param });
  });

  it('does not charge a code that was used up after the session was made', async () => {
    const { promotionCode } = await offer({ percent_off: 20 });
    const session = await pages.stripe.checkout.sessions.create({
      mode: 'subscription',
      customer_email: 'late@example.jp',
      line_items: [{ price: pages.monthly.id, quantity: 1 }],
      discounts: [{ promotion_code: promotionCode.id }],
      success_url: SUCCESS_URL,
    });
    await pages.stripe.promotionCodes.update(promotionCode.id, { active: false });
    const page = await pages.postForm(pathOf(session.url), cardFields('4242424242424242'));
    expect(page.status).toBe(409);
    expect(page.text).toContain('このクーポンはご利用いただけなくなりました');
    expect((await pages.stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });
});
