import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  cardFields,
  eventsOfType,
  expectSandboxPage,
  pathOf,
  usePagesSandbox,
} from '@test-support/billing-sandbox-pages';

/**
 * One-time payments (Checkout in `payment` mode) by card and PayPay, and their refunds, through
 * the official SDK and the sandbox's pages driven as a browser without JavaScript would.
 * Konbini: konbini.integration.test.ts.
 */

const SUCCESS_URL = 'https://axis.example.jp/posts/p1?purchase={CHECKOUT_SESSION_ID}';
const CANCEL_URL = 'https://axis.example.jp/posts/p1';

describe('billing sandbox one-time payments', () => {
  const pages = usePagesSandbox();

  function paymentSession(params: Partial<Stripe.Checkout.SessionCreateParams> = {}) {
    return pages.stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: {
            currency: 'jpy',
            unit_amount: 300,
            tax_behavior: 'inclusive',
            product_data: { name: '記事「デザインの余白」' },
          },
          quantity: 1,
        },
      ],
      allowed_payment_method_types: ['card', 'konbini', 'paypay'],
      customer_email: 'reader@example.jp',
      success_url: SUCCESS_URL,
      cancel_url: CANCEL_URL,
      metadata: { purchase: 'post:p1' },
      payment_intent_data: { metadata: { purchase: 'post:p1', user: 'u1' } },
      client_reference_id: 'u1',
      ...params,
    });
  }

  /** The types of the events about these objects, oldest first. */
  async function eventTypesOf(...ids: string[]): Promise<string[]> {
    const types: string[] = [];
    for await (const event of pages.stripe.events.list({ limit: 100 })) {
      if (ids.includes((event.data.object as { id: string }).id)) types.push(event.type);
    }
    return types.reverse();
  }

  describe('the Checkout Session API in payment mode', () => {
    it('creates a session with price_data in the pinned version’s shape', async () => {
      const session = await paymentSession({
        payment_method_options: { konbini: { expires_after_days: 5 } },
      });
      expect(session).toMatchObject({
        object: 'checkout.session',
        mode: 'payment',
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        subscription: null,
        customer: null,
        customer_creation: 'if_required',
        customer_email: 'reader@example.jp',
        currency: 'jpy',
        amount_subtotal: 300,
        amount_total: 300,
        total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 27 },
        allowed_payment_method_types: ['card', 'konbini', 'paypay'],
        payment_method_types: ['card', 'konbini', 'paypay'],
        payment_method_options: { konbini: { expires_after_days: 5 } },
        metadata: { purchase: 'post:p1' },
        client_reference_id: 'u1',
        url: `${pages.base}/billing-sandbox/checkout/${session.id}`,
      });
      const items = await pages.stripe.checkout.sessions.listLineItems(session.id, {
        expand: ['data.price.product'],
      });
      expect(items.data[0]).toMatchObject({
        description: '記事「デザインの余白」',
        amount_total: 300,
        amount_tax: 27,
        quantity: 1,
        price: {
          type: 'one_time',
          unit_amount: 300,
          currency: 'jpy',
          tax_behavior: 'inclusive',
          product: { name: '記事「デザインの余白」' },
        },
      });
    });

    it('takes a one-time price and an existing customer', async () => {
      const customer = await pages.stripe.customers.create({ email: 'buyer@example.jp' });
      const session = await paymentSession({
        line_items: [{ price: pages.oneTime.id, quantity: 1 }],
        customer: customer.id,
        customer_email: undefined,
        allowed_payment_method_types: ['card'],
      });
      expect(session).toMatchObject({
        customer: customer.id,
        customer_creation: null,
        amount_total: 500,
        total_details: { amount_tax: 45 },
        payment_method_types: ['card'],
      });
    });

    it('refuses what Stripe refuses in payment mode, with Stripe’s errors', async () => {
      const yen = (unit_amount: number) => [
        {
          price_data: { currency: 'jpy', unit_amount, product_data: { name: 'チップ' } },
          quantity: 1,
        },
      ];
      const cases: [Partial<Stripe.Checkout.SessionCreateParams>, string | undefined, RegExp][] = [
        [
          { line_items: [{ price: pages.monthly.id, quantity: 1 }] },
          'line_items[0][price]',
          /recurring price/,
        ],
        [
          { allowed_payment_method_types: ['card', 'oxxo'] },
          'allowed_payment_method_types[1]',
          /card, konbini, paypay/,
        ],
        [{ line_items: yen(40) }, 'line_items', /at least ¥50/],
        [
          { line_items: yen(100), allowed_payment_method_types: ['konbini'] },
          'allowed_payment_method_types',
          /konbini takes ¥120–¥300,000/,
        ],
        [
          { line_items: yen(300_001), allowed_payment_method_types: ['konbini'] },
          'allowed_payment_method_types',
          /konbini takes ¥120–¥300,000/,
        ],
        [
          { allowed_payment_method_types: ['card'], excluded_payment_method_types: ['paypay'] },
          undefined,
          /only specify one of/,
        ],
        [
          { payment_method_options: { konbini: { expires_after_days: 61 } } },
          'payment_method_options[konbini][expires_after_days]',
          /between 1 and 60/,
        ],
        [{ subscription_data: { trial_period_days: 7 } }, 'subscription_data', /subscription_data/],
      ];
      for (const [params, param, message] of cases) {
        const error = await paymentSession(params).catch((caught: unknown) => caught);
        expect(error, JSON.stringify(params)).toBeInstanceOf(Stripe.errors.StripeError);
        expect(error, JSON.stringify(params)).toMatchObject({
          param,
          message: expect.stringMatching(message) as string,
        });
      }
      // The pinned version has no payment_method_types parameter any more.
      await expect(
        paymentSession({
          payment_method_types: ['card'],
        } as Partial<Stripe.Checkout.SessionCreateParams>),
      ).rejects.toMatchObject({ code: 'parameter_unknown', param: 'payment_method_types' });
    });

    it('leaves out, as Stripe does, the methods that cannot take the session', async () => {
      const small = await paymentSession({
        line_items: [
          {
            price_data: { currency: 'jpy', unit_amount: 100, product_data: { name: 'チップ' } },
            quantity: 1,
          },
        ],
      });
      expect(small.payment_method_types).toEqual(['card', 'paypay']);
      const dynamic = await paymentSession({ allowed_payment_method_types: undefined });
      expect(dynamic).toMatchObject({
        allowed_payment_method_types: null,
        payment_method_types: ['card', 'konbini', 'paypay'],
      });
      const noPayPay = await paymentSession({
        allowed_payment_method_types: undefined,
        excluded_payment_method_types: ['paypay', 'link'],
      });
      expect(noPayPay.payment_method_types).toEqual(['card', 'konbini']);
      // A subscription stays card-only, as on Stripe.
      const subscription = (allowed: ('card' | 'konbini' | 'paypay')[]) =>
        pages.stripe.checkout.sessions.create({
          mode: 'subscription',
          line_items: [{ price: pages.monthly.id, quantity: 1 }],
          customer_email: 'reader@example.jp',
          allowed_payment_method_types: allowed,
        });
      expect((await subscription(['card', 'konbini', 'paypay'])).payment_method_types).toEqual([
        'card',
      ]);
      await expect(subscription(['konbini'])).rejects.toMatchObject({
        param: 'allowed_payment_method_types',
      });
    });
  });

  describe('by card', () => {
    it('pays on the page: PaymentIntent and charge succeeded, session paid, events in order', async () => {
      const customer = await pages.stripe.customers.create({ email: 'card-buyer@example.jp' });
      const session = await paymentSession({
        customer: customer.id,
        customer_email: undefined,
      });
      const page = await pages.fetchPage(pathOf(session.url));
      expect(page.status).toBe(200);
      await expectSandboxPage(page, {
        headers: true,
        shows: [
          '記事「デザインの余白」',
          '¥300',
          'カード情報',
          'コンビニ払い',
          'PayPay',
          `href="${CANCEL_URL}"`,
        ],
      });
      const paid = await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4242'));
      expect(paid.status).toBe(303);
      expect(paid.location).toBe(`https://axis.example.jp/posts/p1?purchase=${session.id}`);

      const completed = await pages.stripe.checkout.sessions.retrieve(session.id, {
        expand: ['payment_intent.latest_charge'],
      });
      expect(completed).toMatchObject({
        status: 'complete',
        payment_status: 'paid',
        customer: customer.id,
        customer_details: { email: 'card-buyer@example.jp', name: 'TARO YAMADA' },
        url: null,
      });
      const intent = completed.payment_intent as Stripe.PaymentIntent;
      expect(intent).toMatchObject({
        object: 'payment_intent',
        status: 'succeeded',
        amount: 300,
        amount_received: 300,
        currency: 'jpy',
        customer: customer.id,
        metadata: { purchase: 'post:p1', user: 'u1' },
        next_action: null,
        last_payment_error: null,
      });
      const charge = intent.latest_charge as Stripe.Charge;
      expect(charge).toMatchObject({
        object: 'charge',
        status: 'succeeded',
        paid: true,
        amount: 300,
        amount_refunded: 0,
        payment_intent: intent.id,
        payment_method_details: { type: 'card', card: { brand: 'visa', last4: '4242' } },
        billing_details: { name: 'TARO YAMADA' },
      });
      expect(await eventTypesOf(session.id, intent.id, charge.id)).toEqual([
        'payment_intent.created',
        'charge.succeeded',
        'payment_intent.succeeded',
        'checkout.session.completed',
      ]);
      const [event] = await eventsOfType(pages.stripe, 'checkout.session.completed', session.id);
      expect(event?.data.object).toMatchObject({
        payment_status: 'paid',
        payment_intent: intent.id,
      });
      const listed = await pages.stripe.paymentIntents.list({ customer: customer.id });
      expect(listed.data.map((item) => item.id)).toEqual([intent.id]);
      expect(await pages.stripe.charges.retrieve(charge.id)).toMatchObject({ id: charge.id });
      // A second post to the paid session pays nothing more.
      const again = await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4242'));
      expect(again.location).toBe(paid.location);
      expect(await eventsOfType(pages.stripe, 'charge.succeeded', charge.id)).toHaveLength(1);
    });

    it('says a declined card on the page and pays with the next one on the same PaymentIntent', async () => {
      const session = await paymentSession();
      const declined = await pages.postForm(pathOf(session.url), cardFields('4000 0000 0000 9995'));
      expect(declined.status).toBe(402);
      expect(declined.text).toContain('カードのご利用可能額が不足しているため');
      const open = await pages.stripe.checkout.sessions.retrieve(session.id, {
        expand: ['payment_intent'],
      });
      expect(open.status).toBe('open');
      const failed = open.payment_intent as Stripe.PaymentIntent;
      expect(failed).toMatchObject({
        status: 'requires_payment_method',
        customer: null,
        last_payment_error: {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'insufficient_funds',
        },
      });
      expect(
        await eventsOfType(pages.stripe, 'payment_intent.payment_failed', failed.id),
      ).toHaveLength(1);
      const paid = await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4242'));
      expect(paid.status).toBe(303);
      const intent = await pages.stripe.paymentIntents.retrieve(failed.id);
      expect(intent).toMatchObject({ status: 'succeeded', last_payment_error: null });
      const charges = await pages.stripe.charges.list({ payment_intent: intent.id });
      expect(charges.data.map((charge) => charge.status)).toEqual(['succeeded', 'failed']);
    });

    it('asks for 3-D Secure, then pays, or fails back to the card form', async () => {
      const session = await paymentSession();
      const challenged = await pages.postForm(
        pathOf(session.url),
        cardFields('4000 0027 6000 3184'),
      );
      expect(challenged.status).toBe(303);
      expect(challenged.location).toMatch(/^\/billing-sandbox\/authenticate\/pi_/);
      const waiting = await pages.stripe.checkout.sessions.retrieve(session.id, {
        expand: ['payment_intent'],
      });
      const intent = waiting.payment_intent as Stripe.PaymentIntent;
      expect(intent).toMatchObject({
        status: 'requires_action',
        next_action: {
          type: 'redirect_to_url',
          redirect_to_url: { url: `${pages.base}${challenged.location}` },
        },
      });
      const challenge = await pages.fetchPage(challenged.location ?? '');
      await expectSandboxPage(challenge, { shows: ['¥300', '末尾 3184', '認証する'] });
      const failed = await pages.postForm(challenged.location ?? '', { result: 'failed' });
      expect(failed.location).toBe(`${pathOf(session.url)}?error=authentication_failed`);
      expect(await pages.stripe.paymentIntents.retrieve(intent.id)).toMatchObject({
        status: 'requires_payment_method',
        last_payment_error: { code: 'payment_intent_authentication_failure' },
      });
      const back = await pages.fetchPage(failed.location ?? '');
      expect(back.text).toContain('カードの本人認証に失敗しました');

      const again = await pages.postForm(pathOf(session.url), cardFields('4000 0027 6000 3184'));
      const passed = await pages.postForm(again.location ?? '', { result: 'succeeded' });
      expect(passed.location).toBe(`https://axis.example.jp/posts/p1?purchase=${session.id}`);
      expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
        status: 'complete',
        payment_status: 'paid',
        payment_intent: intent.id,
      });
    });
  });

  describe('by PayPay', () => {
    it('approves on the sandbox PayPay page: paid, as by card', async () => {
      const session = await paymentSession({ allowed_payment_method_types: ['paypay'] });
      const page = await pages.fetchPage(pathOf(session.url));
      expect(page.text).not.toContain('カード情報');
      const started = await pages.postForm(pathOf(session.url), { method: 'paypay' });
      expect(started.status).toBe(303);
      expect(started.location).toMatch(/^\/billing-sandbox\/paypay\/pi_/);
      const waiting = await pages.stripe.checkout.sessions.retrieve(session.id, {
        expand: ['payment_intent'],
      });
      const intent = waiting.payment_intent as Stripe.PaymentIntent;
      expect(intent).toMatchObject({
        status: 'requires_action',
        payment_method_types: ['paypay'],
        next_action: { type: 'redirect_to_url' },
      });
      const approval = await pages.fetchPage(started.location ?? '');
      await expectSandboxPage(approval, {
        headers: true,
        shows: ['PayPay', '¥300', '承認', '拒否'],
      });
      const approved = await pages.postForm(started.location ?? '', { result: 'approve' });
      expect(approved.location).toBe(`https://axis.example.jp/posts/p1?purchase=${session.id}`);
      const paid = await pages.stripe.paymentIntents.retrieve(intent.id, {
        expand: ['latest_charge'],
      });
      expect(paid).toMatchObject({ status: 'succeeded', amount_received: 300 });
      expect(paid.latest_charge).toMatchObject({
        status: 'succeeded',
        payment_method_details: { type: 'paypay' },
      });
      expect(await eventTypesOf(session.id, intent.id)).toEqual([
        'payment_intent.created',
        'payment_intent.requires_action',
        'payment_intent.succeeded',
        'checkout.session.completed',
      ]);
    });

    it('declined: back to the checkout with the reason; the session stays open', async () => {
      const session = await paymentSession();
      const started = await pages.postForm(pathOf(session.url), { method: 'paypay' });
      const declined = await pages.postForm(started.location ?? '', { result: 'decline' });
      expect(declined.location).toBe(`${pathOf(session.url)}?error=paypay_declined`);
      const back = await pages.fetchPage(declined.location ?? '');
      expect(back.text).toContain('PayPayでのお支払いが完了しませんでした');
      const open = await pages.stripe.checkout.sessions.retrieve(session.id, {
        expand: ['payment_intent'],
      });
      expect(open).toMatchObject({ status: 'open', payment_status: 'unpaid' });
      const intent = open.payment_intent as Stripe.PaymentIntent;
      expect(intent).toMatchObject({
        status: 'requires_payment_method',
        last_payment_error: { code: 'payment_intent_authentication_failure' },
      });
      expect(
        await eventsOfType(pages.stripe, 'payment_intent.payment_failed', intent.id),
      ).toHaveLength(1);
      // The approval page of a declined payment no longer takes an answer.
      const late = await pages.postForm(started.location ?? '', { result: 'approve' });
      expect(late.status).toBe(200);
      expect((await pages.stripe.paymentIntents.retrieve(intent.id)).status).toBe(
        'requires_payment_method',
      );
    });
  });

  describe('refunds', () => {
    it('refunds a one-time payment in parts, with charge.refunded, and never more than paid', async () => {
      const session = await paymentSession();
      await pages.postForm(pathOf(session.url), cardFields('4242 4242 4242 4242'));
      const { payment_intent: intentId } = await pages.stripe.checkout.sessions.retrieve(
        session.id,
      );
      const intent = await pages.stripe.paymentIntents.retrieve(intentId as string);
      const part = await pages.stripe.refunds.create({ payment_intent: intent.id, amount: 100 });
      expect(part).toMatchObject({
        object: 'refund',
        status: 'succeeded',
        amount: 100,
        payment_intent: intent.id,
        charge: intent.latest_charge,
      });
      await expect(
        pages.stripe.refunds.create({ payment_intent: intent.id, amount: 201 }),
      ).rejects.toMatchObject({ code: 'amount_too_large' });
      const rest = await pages.stripe.refunds.create({ charge: intent.latest_charge as string });
      expect(rest.amount).toBe(200);
      const charge = await pages.stripe.charges.retrieve(intent.latest_charge as string);
      expect(charge).toMatchObject({ amount_refunded: 300, refunded: true });
      const refunded = await eventsOfType(pages.stripe, 'charge.refunded', charge.id);
      expect(refunded.map((event) => (event.data.object as Stripe.Charge).amount_refunded)).toEqual(
        [300, 100],
      );
      await expect(
        pages.stripe.refunds.create({ payment_intent: intent.id }),
      ).rejects.toMatchObject({ code: 'charge_already_refunded' });
      const listed = await pages.stripe.refunds.list({ payment_intent: intent.id });
      expect(listed.data.map((refund) => refund.amount)).toEqual([200, 100]);
    });
  });
});
