import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { offerTerms } from '@/lib/billing/offer-terms';
import type { Db } from '@/server/platform/db/client';
import { useBillingSite } from '@test-support/billing-site';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { CheckoutRefused, startCheckout } from './checkout';
import { createOffer, listOffers, offerInput } from './offer-console';
import { claimRedemption, lookUpOffer, redemptionCounts } from './offers';
import { billingSummaryFor, listReceipts } from './reader-billing';
import { applyCompletedCheckout } from './webhook';

/**
 * A reader with an offer's code: the code looked up as the plans page and the confirmation
 * screen do, the checkout that applies it (no trial beside it), the discounted first invoice,
 * and the codes that cannot be used (said in Japanese; the regular price instead). An offer made
 * on the console counts only completed checkouts against its cap, also two at once.
 */

/** A refusal whose Japanese message says `why`. */
const invalid = (why: string) => ({
  state: 'invalid',
  message: expect.stringContaining(why) as unknown as string,
});

describe('offers', () => {
  // One site (database, catalogue, sandbox) for the file's tests.
  const site = useBillingSite();
  let db: Db;
  let stripe: Stripe;
  beforeAll(() => ({ db, stripe } = site));

  describe('offers on the reader path', () => {
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

  describe('an offer’s redemptions: completed checkouts only, never past the cap', () => {
    let serial = 0;

    /** An offer made on the console (/admin/offers) with a cap. */
    async function consoleOffer(cap: number) {
      const code = `CAPPED${++serial}`;
      const made = await createOffer(
        db,
        offerInput.parse({
          name: '初月半額',
          kind: 'percent',
          value: '50',
          duration: 'once',
          code,
          cap: String(cap),
          plans: ['monthly', 'yearly'],
        }),
      );
      if (!made.ok) throw new Error(JSON.stringify(made.fieldErrors));
      return code;
    }
    const row = async (code: string) => (await listOffers(db)).find((o) => o.code === code);
    const start = async (prefix: string, code: string) =>
      startCheckout(db, await site.newReader(prefix), 'monthly', null, '/', null, code);
    const sessionOf = (url: string) => stripe.checkout.sessions.retrieve(url.split('/').at(-1)!);

    /** The card form posted with a card that asks for 3-D Secure, and the challenge failed. */
    async function failAuthentication(url: string) {
      const posted = await site.pay(url, '4000002760003184');
      expect(posted.status).toBe(303);
      const challenge = new URL(posted.headers.get('location')!, url);
      expect(challenge.pathname).toMatch(/\/authenticate\/pi_/);
      const failed = await handleBillingSandbox(
        new Request(challenge, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            origin: challenge.origin,
          },
          body: new URLSearchParams({ result: 'failed' }),
        }),
        db,
      );
      expect(failed.status).toBe(303);
    }

    it('a failed 3-D Secure attempt, a declined card or an abandoned checkout uses no slot', async () => {
      const code = await consoleOffer(1);
      await failAuthentication((await start('3ds', code)).url);
      const declined = await site.pay((await start('declined', code)).url, '4000000000009995');
      expect(declined.status).toBe(402);
      const abandoned = await start('abandons', code);
      await site.deliver();
      expect((await lookUpOffer(db, code, null)).state).toBe('valid');
      expect(await row(code)).toMatchObject({ redeemed: 0, cap: 1, overCap: 0, active: true });

      // A completed checkout counts: the code is used up, and the checkout left open is refused
      // at its card form (nothing charged) rather than completing past the cap.
      const completes = await start('completes', code);
      expect((await site.pay(completes.url)).status).toBe(303);
      await site.deliver();
      expect(await row(code)).toMatchObject({ redeemed: 1, cap: 1, overCap: 0 });
      expect(await lookUpOffer(db, code, null)).toMatchObject(invalid('利用上限'));
      await expect(start('late', code)).rejects.toBeInstanceOf(CheckoutRefused);
      expect((await site.pay(abandoned.url)).status).toBe(409);
      expect((await sessionOf(abandoned.url)).status).toBe('open');
    });

    it('two checkouts completing at once count once; the one past the cap keeps its discount', async () => {
      const code = await consoleOffer(1);
      // Both readers confirmed the discounted price and paid it before either completion was
      // applied (the provider completes checkouts on its own; the site learns of them after).
      const first = await start('together', code);
      const second = await start('together', code);
      expect((await site.pay(first.url)).status).toBe(303);
      expect((await site.pay(second.url)).status).toBe(303);
      const subscriptions = await Promise.all(
        [first, second].map(async ({ url }) => {
          const { subscription } = await sessionOf(url);
          return typeof subscription === 'string' ? subscription : subscription!.id;
        }),
      );
      await Promise.all(subscriptions.map((id) => applyCompletedCheckout(db, id)));
      await site.deliver();
      expect(await row(code)).toMatchObject({ redeemed: 1, cap: 1, overCap: 1, active: false });
      expect(await lookUpOffer(db, code, null)).toMatchObject(invalid('利用上限'));
      // Honoured: each was charged the price they confirmed, and keeps the plan they paid for.
      for (const id of subscriptions) {
        const subscription = await stripe.subscriptions.retrieve(id, {
          expand: ['latest_invoice'],
        });
        expect(subscription.status).toBe('active');
        expect((subscription.latest_invoice as Stripe.Invoice).amount_paid).toBe(550);
      }
    });
  });

  describe('the cap under concurrency', () => {
    it('counts completions written at once one after the other, never past the cap', async () => {
      // Eight completions of one code with a cap of 3, written at once (on PostgreSQL, over the
      // pool's connections: npm run test:postgres).
      const written = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          claimRedemption(db, {
            subscriptionId: `sub_at_once_${i}`,
            promotionCodeId: 'promo_at_once',
            cap: 3,
          }),
        ),
      );
      expect(written.filter((w) => w?.counted)).toHaveLength(3);
      expect((await redemptionCounts(db, ['promo_at_once'])).get('promo_at_once')).toEqual({
        counted: 3,
        overCap: 5,
      });
      // A repeat (the webhook and the success page) writes nothing more.
      expect(
        await claimRedemption(db, {
          subscriptionId: 'sub_at_once_0',
          promotionCodeId: 'promo_at_once',
          cap: 3,
        }),
      ).toBeNull();
    });
  });
});
