import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { attachCard } from '@test-support/billing-sandbox';
import {
  cardFields,
  expectSandboxPage,
  pathOf,
  usePagesSandbox,
} from '@test-support/billing-sandbox-pages';
import { DAY, utc } from '@test-support/unix-time';

/**
 * EMV 3-D Secure with Stripe's test cards: the checkout page sends the cardholder to the
 * simulated issuer's challenge; passing it completes the checkout, failing it returns to the
 * card form with no subscription; a renewal on a card that asks every time waits for
 * authentication (past_due, invoice.payment_action_required) until the challenge is passed.
 * Driven through the official SDK and the pages as a browser without JavaScript.
 */

const ALWAYS = '4000002760003184';
const UNLESS_SET_UP = '4000002500003155';
const THREE_DS_2 = '4000000000003220';
const SUCCESS_URL = 'https://axis.example.jp/welcome';

describe('EMV 3-D Secure', () => {
  const pages = usePagesSandbox();

  /** A customer on a clock of its own, and a checkout session selling it the monthly plan. */
  const clockedSession = (start = utc(2027, 4, 1)) =>
    pages.clockedCheckout({ label: '3ds', start, successUrl: SUCCESS_URL });

  /** The customer's events, oldest first. */
  async function typesOf(customerId: string): Promise<string[]> {
    const events: Stripe.Event[] = [];
    for await (const event of pages.stripe.events.list({ limit: 100 })) {
      const object = event.data.object as { customer?: unknown; id?: unknown };
      if (object.customer === customerId) events.push(event);
    }
    return events.reverse().map((event) => event.type);
  }

  /** Submits the card form; answers the challenge page's path. */
  async function challengeFor(session: Stripe.Checkout.Session, number: string) {
    const posted = await pages.postForm(pathOf(session.url), cardFields(number));
    expect(posted.status).toBe(303);
    const challenge = new URL(posted.location ?? '', pages.base).pathname;
    expect(challenge).toMatch(/^\/billing-sandbox\/authenticate\/pi_/);
    return challenge;
  }

  it.each([ALWAYS, UNLESS_SET_UP, THREE_DS_2])(
    '%s: the checkout goes to the challenge; passing it completes the checkout',
    async (number) => {
      const { customer, session } = await clockedSession();
      const challenge = await challengeFor(session, number);
      const paymentIntentId = challenge.split('/').at(-1) ?? '';

      // Meanwhile the session is open and the PaymentIntent waits for the cardholder.
      expect((await pages.stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
      const waiting = await pages.stripe.paymentIntents.retrieve(paymentIntentId);
      expect(waiting).toMatchObject({
        object: 'payment_intent',
        status: 'requires_action',
        amount: 1100,
        currency: 'jpy',
        customer: customer.id,
        next_action: {
          type: 'redirect_to_url',
          redirect_to_url: {
            url: `${pages.base}${challenge}`,
            return_url: `${pages.base}${pathOf(session.url)}`,
          },
        },
      });

      const page = await pages.fetchPage(challenge);
      expect(page.status).toBe(200);
      await expectSandboxPage(page, {
        shows: ['3Dセキュア認証（テスト）', '¥1,100', `末尾 ${number.slice(-4)}`],
      });
      expect(page.text).toMatch(/<button[^>]+name="result"[^>]+value="succeeded"[^>]*>認証する/);
      expect(page.text).toMatch(/value="failed"[^>]*>\s*認証に失敗する/);
      expect(page.headers.get('content-security-policy')).toContain('https://axis.example.jp');

      const passed = await pages.postForm(challenge, { result: 'succeeded' });
      expect(passed.status).toBe(303);
      expect(passed.location).toBe(SUCCESS_URL);
      const completed = await pages.stripe.checkout.sessions.retrieve(session.id);
      expect(completed).toMatchObject({ status: 'complete', payment_status: 'paid' });
      const subscription = await pages.stripe.subscriptions.retrieve(
        completed.subscription as string,
      );
      expect(subscription.status).toBe('active');
      expect(await pages.stripe.invoices.retrieve(completed.invoice as string)).toMatchObject({
        status: 'paid',
        amount_paid: 1100,
      });
      expect(await pages.stripe.paymentIntents.retrieve(paymentIntentId)).toMatchObject({
        status: 'succeeded',
        amount_received: 1100,
        next_action: null,
      });
      // What the site's webhook receives.
      expect(await typesOf(customer.id)).toEqual([
        'customer.subscription.created',
        'invoice.created',
        'invoice.finalized',
        'invoice.payment_action_required',
        'invoice.paid',
        'invoice.payment_succeeded',
        'customer.subscription.updated',
        'checkout.session.completed',
      ]);
      // A second post (a double click) changes nothing.
      const again = await pages.postForm(challenge, { result: 'succeeded' });
      expect(again.text).toContain('お支払いは完了しています');
    },
  );

  it('a failed challenge returns to the card form with the reason, and no subscription', async () => {
    const { customer, session } = await clockedSession();
    const previous = await attachCard(pages.stripe, customer.id);
    const challenge = await challengeFor(session, ALWAYS);
    const paymentIntentId = challenge.split('/').at(-1) ?? '';

    const failed = await pages.postForm(challenge, { result: 'failed' });
    expect(failed.status).toBe(303);
    expect(failed.location).toBe(`${pathOf(session.url)}?error=authentication_failed`);
    const form = await pages.fetchPage(failed.location ?? '');
    expect(form.status).toBe(200);
    expect(form.text).toContain('カードの本人認証に失敗しました。別のカードをお試しください。');
    await expectSandboxPage(form);

    expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: 'open',
      subscription: null,
    });
    expect((await pages.stripe.subscriptions.list({ customer: customer.id })).data).toEqual([]);
    const after = (await pages.stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(after.invoice_settings.default_payment_method).toBe(previous.id);
    expect(await pages.stripe.paymentIntents.retrieve(paymentIntentId)).toMatchObject({
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: { code: 'payment_intent_authentication_failure' },
    });

    // Another card on the same page pays.
    const paid = await pages.postForm(pathOf(session.url), cardFields('4242424242424242'));
    expect(paid.location).toBe(SUCCESS_URL);
    const live = await pages.stripe.subscriptions.list({ customer: customer.id });
    expect(live.data.map((subscription) => subscription.status)).toEqual(['active']);
  });

  it('through the API: incomplete, and invoices.pay asks for the customer’s action', async () => {
    const customer = await pages.stripe.customers.create({ email: '3ds-api@example.jp' });
    await attachCard(pages.stripe, customer.id, ALWAYS);
    const created = await pages.stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: pages.monthly.id }],
    });
    expect(created.status).toBe('incomplete');
    const error = await pages.stripe.invoices
      .pay(created.latest_invoice as string)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({ code: 'invoice_payment_intent_requires_action' });
  });

  it('4000 0027 6000 3184 renews only after authentication: past_due, then active', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer, session } = await clockedSession(start);
    await pages.postForm(await challengeFor(session, ALWAYS), { result: 'succeeded' });
    const subscriptionId = (await pages.stripe.checkout.sessions.retrieve(session.id))
      .subscription as string;
    const before = (await typesOf(customer.id)).length;

    await pages.stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 5, 2) });
    const pastDue = await pages.stripe.subscriptions.retrieve(subscriptionId);
    expect(pastDue.status).toBe('past_due');
    const renewal = await pages.stripe.invoices.retrieve(pastDue.latest_invoice as string);
    expect(renewal).toMatchObject({ status: 'open', billing_reason: 'subscription_cycle' });
    expect((await typesOf(customer.id)).slice(before)).toEqual([
      'customer.subscription.updated',
      'invoice.created',
      'invoice.finalized',
      'invoice.payment_action_required',
      'customer.subscription.updated',
    ]);
    const payments = await pages.stripe.invoicePayments.list({ invoice: renewal.id });
    expect(payments.data).toMatchObject([{ status: 'open', payment: { type: 'payment_intent' } }]);
    const paymentIntentId = payments.data[0]?.payment.payment_intent as string;
    const waiting = await pages.stripe.paymentIntents.retrieve(paymentIntentId);
    expect(waiting.status).toBe('requires_action');
    expect(waiting.next_action?.type).toBe('use_stripe_sdk');
    const challenge = new URL(
      (waiting.next_action?.use_stripe_sdk as { stripe_js: string }).stripe_js,
    ).pathname;

    // Opened from the site's notice: the page, and what it ends with, lead back there.
    const cameFrom = 'https://axis.example.jp/account';
    const opened = await pages.fetchPage(challenge, { headers: { referer: cameFrom } });
    expect(opened.text).toContain(`<a href="${cameFrom}">認証せずにサイトに戻る</a>`);
    expect(opened.text).toMatch(/<input type="hidden" name="return_to" value="[^"]+"/);
    const returnTo = /name="return_to" value="([^"]+)"/.exec(opened.text)?.[1] ?? '';
    expect(returnTo).toBe(cameFrom);

    const passed = await pages.postForm(challenge, { result: 'succeeded', return_to: returnTo });
    expect(passed.status).toBe(200);
    expect(passed.text).toContain('お支払いは完了しています');
    expect(passed.text).toContain(`<a href="${cameFrom}">サイトに戻る</a>`);
    expect(passed.text).not.toContain('このページを閉じて');
    // Opened again later without a page it came from (a bookmark): the site's front page.
    const later = await pages.fetchPage(challenge);
    expect(later.text).toContain(`<a href="${pages.base}/">サイトに戻る</a>`);
    expect((await pages.stripe.subscriptions.retrieve(subscriptionId)).status).toBe('active');
    expect((await pages.stripe.invoices.retrieve(renewal.id)).status).toBe('paid');
    expect((await typesOf(customer.id)).slice(-3)).toEqual([
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
  });

  it('4000 0025 0000 3155, authenticated at checkout, renews without the customer', async () => {
    const start = utc(2027, 4, 1);
    const { clock, session } = await clockedSession(start);
    await pages.postForm(await challengeFor(session, UNLESS_SET_UP), { result: 'succeeded' });
    const subscriptionId = (await pages.stripe.checkout.sessions.retrieve(session.id))
      .subscription as string;
    await pages.stripe.testHelpers.testClocks.advance(clock.id, {
      frozen_time: start + 32 * DAY,
    });
    const renewed = await pages.stripe.subscriptions.retrieve(subscriptionId);
    expect(renewed.status).toBe('active');
    expect((await pages.stripe.invoices.retrieve(renewed.latest_invoice as string)).status).toBe(
      'paid',
    );
  });
});
