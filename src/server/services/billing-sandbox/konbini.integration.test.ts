import type Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import {
  eventsOfType,
  expectSandboxPage,
  pathOf,
  usePagesSandbox,
} from '@test-support/billing-sandbox-pages';
import { DAY, utc } from '@test-support/unix-time';
import { expireKonbiniPayments, payOldestKonbiniPayment } from './cycle/konbini';

/**
 * Konbini (convenience-store) payments through Checkout in `payment` mode: the unpaid
 * completion with its voucher, payment through the sandbox's test helper, expiry by a test
 * clock or the background runner's tick.
 */

const SUCCESS_URL = 'https://axis.example.jp/posts/p1?purchase={CHECKOUT_SESSION_ID}';
const PAY_PATH = (id: string) => `/v1/test_helpers/sandbox/konbini_payments/${id}/pay`;

/** 2026-12-01 10:00 UTC, 19:00 in Japan. */
const START = utc(2026, 12, 1) + 10 * 3600;
/** Three days later, at the end of the day in Japan: 2026-12-04 23:59:59 JST. */
const DEADLINE = utc(2026, 12, 4) + 15 * 3600 - 1;

describe('billing sandbox konbini payments', () => {
  const pages = usePagesSandbox();

  async function konbiniSession(
    customer: { customer: string } | { customer_email: string },
    params: Partial<Stripe.Checkout.SessionCreateParams> = {},
  ) {
    return pages.stripe.checkout.sessions.create({
      mode: 'payment',
      line_items: [
        {
          price_data: { currency: 'jpy', unit_amount: 300, product_data: { name: 'チップ' } },
          quantity: 1,
        },
      ],
      allowed_payment_method_types: ['card', 'konbini'],
      success_url: SUCCESS_URL,
      ...customer,
      ...params,
    });
  }

  /** A customer on a test clock frozen at START, and its konbini session confirmed on the page. */
  async function confirmedOnClock(email: string) {
    const clock = await pages.stripe.testHelpers.testClocks.create({ frozen_time: START });
    const customer = await pages.stripe.customers.create({ email, test_clock: clock.id });
    const session = await konbiniSession({ customer: customer.id });
    const confirmed = await pages.postForm(pathOf(session.url), { method: 'konbini' });
    const completed = await pages.stripe.checkout.sessions.retrieve(session.id, {
      expand: ['payment_intent'],
    });
    return {
      clock,
      customer,
      session: completed,
      intent: completed.payment_intent as Stripe.PaymentIntent,
      voucherPath: confirmed.location ?? '',
    };
  }

  async function eventTypesOf(...ids: string[]): Promise<string[]> {
    const types: string[] = [];
    for await (const event of pages.stripe.events.list({ limit: 100 })) {
      if (ids.includes((event.data.object as { id: string }).id)) types.push(event.type);
    }
    return types.reverse();
  }

  const pay = (id: string, store?: string) =>
    pages.stripe.rawRequest('POST', PAY_PATH(id), store ? { store } : {}) as Promise<
      Stripe.PaymentIntent & { lastResponse: unknown }
    >;

  it('completes the session unpaid, with the voucher in next_action and on its page', async () => {
    const { session, intent, voucherPath } = await confirmedOnClock('konbini-voucher@example.jp');
    expect(voucherPath).toBe(`/billing-sandbox/konbini/${intent.id}`);
    expect(session).toMatchObject({ status: 'complete', payment_status: 'unpaid', url: null });
    expect(intent).toMatchObject({
      status: 'requires_action',
      amount: 300,
      payment_method_types: ['card', 'konbini'],
      payment_method_options: { konbini: { expires_after_days: 3 } },
      next_action: {
        type: 'konbini_display_details',
        konbini_display_details: {
          expires_at: DEADLINE,
          hosted_voucher_url: `${pages.base}${voucherPath}`,
        },
      },
    });
    const stores = intent.next_action?.konbini_display_details?.stores;
    for (const chain of ['familymart', 'lawson', 'ministop', 'seicomart'] as const) {
      expect(stores?.[chain]?.payment_code).toMatch(/^\d{6,}$/);
      expect(stores?.[chain]?.confirmation_number).toMatch(/^\d{10,11}$/);
    }
    expect(await eventTypesOf(session.id, intent.id)).toEqual([
      'payment_intent.created',
      'payment_intent.requires_action',
      'checkout.session.completed',
    ]);
    const [completed] = await eventsOfType(pages.stripe, 'checkout.session.completed', session.id);
    expect(completed?.data.object).toMatchObject({ payment_status: 'unpaid' });
    expect(completed?.created).toBe(START);

    // The checkout page of the completed session leads to the voucher.
    const checkout = await pages.fetchPage(`/billing-sandbox/checkout/${session.id}`);
    expect(checkout.text).toContain(`href="${voucherPath}"`);
    const voucher = await pages.fetchPage(voucherPath);
    await expectSandboxPage(voucher, {
      headers: true,
      shows: [
        '¥300',
        '2026年12月4日 23:59',
        'ファミリーマート',
        'ローソン',
        'ミニストップ',
        'セイコーマート',
        stores?.lawson?.payment_code ?? '-',
        `href="https://axis.example.jp/posts/p1?purchase=${session.id}"`,
      ],
    });
  });

  it('paid through the test helper: async_payment_succeeded, and only once', async () => {
    const { session, intent, voucherPath } = await confirmedOnClock('konbini-paid@example.jp');
    const paid = await pay(intent.id, 'lawson');
    expect(paid).toMatchObject({ id: intent.id, status: 'succeeded', amount_received: 300 });
    const charge = await pages.stripe.charges.retrieve(paid.latest_charge as string);
    expect(charge).toMatchObject({
      status: 'succeeded',
      amount: 300,
      payment_method_details: { type: 'konbini', konbini: { store: { chain: 'lawson' } } },
    });
    expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      payment_status: 'paid',
    });
    expect(await eventTypesOf(session.id, intent.id, charge.id)).toEqual([
      'payment_intent.created',
      'payment_intent.requires_action',
      'checkout.session.completed',
      'charge.succeeded',
      'payment_intent.succeeded',
      'checkout.session.async_payment_succeeded',
    ]);
    const [succeeded] = await eventsOfType(
      pages.stripe,
      'checkout.session.async_payment_succeeded',
      session.id,
    );
    expect(succeeded?.data.object).toMatchObject({ payment_status: 'paid' });
    await expect(pay(intent.id)).rejects.toMatchObject({
      statusCode: 400,
      code: 'payment_intent_unexpected_state',
    });
    await expect(pay('pi_missing')).rejects.toMatchObject({ statusCode: 404 });
    const voucher = await pages.fetchPage(voucherPath);
    expect(voucher.text).toContain('お支払いは完了しています');
  });

  it('expires unpaid when the clock passes the deadline: async_payment_failed', async () => {
    const { clock, session, intent, voucherPath } = await confirmedOnClock(
      'konbini-expired@example.jp',
    );
    await pages.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: DEADLINE - 60 });
    expect((await pages.stripe.paymentIntents.retrieve(intent.id)).status).toBe('requires_action');
    await pages.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: START + 10 * DAY });
    const expired = await pages.stripe.paymentIntents.retrieve(intent.id);
    expect(expired).toMatchObject({
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: { code: 'payment_intent_payment_attempt_expired' },
    });
    expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: 'complete',
      payment_status: 'unpaid',
    });
    const [failed] = await eventsOfType(
      pages.stripe,
      'checkout.session.async_payment_failed',
      session.id,
    );
    expect(failed?.created).toBe(DEADLINE);
    expect(await eventTypesOf(session.id, intent.id)).toEqual([
      'payment_intent.created',
      'payment_intent.requires_action',
      'checkout.session.completed',
      'payment_intent.payment_failed',
      'checkout.session.async_payment_failed',
    ]);
    await expect(pay(intent.id)).rejects.toMatchObject({ statusCode: 400 });
    const voucher = await pages.fetchPage(voucherPath);
    expect(voucher.text).toContain('お支払い期限が過ぎました');
  });

  it('expires a clockless voucher on the runner’s tick, and pays the oldest open one by e-mail', async () => {
    const email = 'konbini-guest@example.jp';
    const first = await konbiniSession({ customer_email: email });
    await pages.postForm(pathOf(first.url), { method: 'konbini' });
    const second = await konbiniSession(
      { customer_email: email },
      { payment_method_options: { konbini: { expires_after_days: 30 } } },
    );
    await pages.postForm(pathOf(second.url), { method: 'konbini' });
    const firstIntent = (await pages.stripe.checkout.sessions.retrieve(first.id))
      .payment_intent as string;
    const secondIntent = (await pages.stripe.checkout.sessions.retrieve(second.id))
      .payment_intent as string;

    const db = pages.database.db;
    expect(await expireKonbiniPayments(db, Math.floor(Date.now() / 1000))).toBe(0);
    expect(await expireKonbiniPayments(db, Math.floor(Date.now() / 1000) + 5 * DAY)).toBe(1);
    expect((await pages.stripe.paymentIntents.retrieve(firstIntent)).status).toBe(
      'requires_payment_method',
    );
    expect(
      await eventsOfType(pages.stripe, 'checkout.session.async_payment_failed', first.id),
    ).toHaveLength(1);

    // The expired one is not open any more: the oldest open one is the second.
    const paid = await payOldestKonbiniPayment(db, 'Konbini-Guest@example.jp');
    expect(paid).toMatchObject({ id: secondIntent, status: 'succeeded', amount: 300 });
    expect(await payOldestKonbiniPayment(db, email)).toBeNull();
    expect(await pages.stripe.checkout.sessions.retrieve(second.id)).toMatchObject({
      payment_status: 'paid',
    });
  });
});
