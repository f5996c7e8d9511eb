import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { offerTerms } from '@/lib/billing/offer-terms';
import type { Db } from '@/server/platform/db/client';
import { useBillingSite } from '@test-support/billing-site';
import { CheckoutRefused, startCheckout } from './checkout';
import { lookUpOffer } from './offers';
import { billingSummaryFor, listReceipts } from './reader-billing';

/**
 * A reader with an offer's code: the code looked up as the plans page and the confirmation
 * screen do, the checkout that applies it (no trial beside it), the discounted first invoice,
 * and the codes that cannot be used (said in Japanese; the regular price instead).
 */

/** A refusal whose Japanese message says `why`. */
const invalid = (why: string) => ({
  state: 'invalid',
  message: expect.stringContaining(why) as unknown as string,
});

describe('offers on the reader path', () => {
  const site = useBillingSite();
  let db: Db;
  let stripe: Stripe;
  beforeAll(() => ({ db, stripe } = site));
  let serial = 0;

  async function offer(
    coupon: Stripe.CouponCreateParams,
    code: Omit<Stripe.PromotionCodeCreateParams, 'promotion'> = {},
  ) {
    const made = await stripe.coupons.create({ name: '初月半額', ...coupon });
    return stripe.promotionCodes.create({
      promotion: { type: 'coupon', coupon: made.id },
      code: `WELCOME${++serial}`,
      ...code,
    });
  }

  it('shows the offered price and applies the code at checkout, instead of the trial', async () => {
    const code = await offer({ percent_off: 50, duration: 'once' });
    const found = await lookUpOffer(db, code.code.toLowerCase(), null);
    expect(found.state).toBe('valid');
    if (found.state !== 'valid') return;
    expect(offerTerms(found.offer, site.plan('monthly'))).toMatchObject({
      discounted: 550,
      label: '初月 ¥550（通常 ¥1,100）',
    });
    expect(offerTerms(found.offer, site.plan('yearly'))?.label).toBe(
      '初年度 ¥5,500（通常 ¥11,000）',
    );

    const reader = await site.newReader('offer');
    const started = await startCheckout(db, reader, 'monthly', null, '/', null, code.code);
    expect(started).toMatchObject({ trialDays: 0, offer: code.code });
    const session = await stripe.checkout.sessions.retrieve(started.url.split('/').at(-1)!);
    expect(session).toMatchObject({
      amount_total: 550,
      total_details: { amount_discount: 550, amount_tax: 50 },
      discounts: [{ promotion_code: code.id }],
    });
    expect((await site.pay(started.url)).status).toBe(303);
    await site.deliver();
    const summary = await billingSummaryFor(db, reader.id);
    expect(summary.current?.status).toBe('active');
    const [receipt] = await listReceipts(db, reader.id);
    expect(receipt).toMatchObject({ total: 550, tax: 50 });
    expect(receipt?.lines.map((line) => line.amount)).toEqual([1100, -550]);
    expect(receipt?.lines[1]?.description).toBe('割引（クーポン）');
  });

  it('says why a code cannot be used, and checkout refuses it too', async () => {
    expect(await lookUpOffer(db, 'NOSUCHCODE', null)).toMatchObject(invalid('見つからないか'));
    const inactive = await offer({ percent_off: 10 });
    await stripe.promotionCodes.update(inactive.id, { active: false });
    expect((await lookUpOffer(db, inactive.code, null)).state).toBe('invalid');

    const capped = await offer({ percent_off: 10 }, { max_redemptions: 1 });
    const first = await site.newReader('capped');
    const started = await startCheckout(db, first, 'monthly', null, '/', null, capped.code);
    await site.pay(started.url);
    await site.deliver();
    expect(await lookUpOffer(db, capped.code, null)).toMatchObject(invalid('利用上限'));
    const second = await site.newReader('capped');
    await expect(
      startCheckout(db, second, 'monthly', null, '/', null, capped.code),
    ).rejects.toBeInstanceOf(CheckoutRefused);

    const firstTime = await offer(
      { percent_off: 10 },
      { restrictions: { first_time_transaction: true } },
    );
    expect(await lookUpOffer(db, firstTime.code, { userId: first.id })).toMatchObject(
      invalid('初めて'),
    );
    expect((await lookUpOffer(db, firstTime.code, null)).state).toBe('valid');
  });
});
