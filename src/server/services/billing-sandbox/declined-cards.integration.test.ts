import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { FAILING_CARD, attachCard } from '@test-support/billing-sandbox';
import { cardFields, pathOf, usePagesSandbox } from '@test-support/billing-sandbox-pages';
import { DAY, utc } from '@test-support/unix-time';

/**
 * Stripe's declined test cards as the official SDK sees them, with their decline codes, and
 * the Japanese message the hosted checkout page gives for each; and 4000 0000 0000 0341, which
 * attaches but whose every charge is declined.
 */

describe('declined test cards', () => {
  const pages = usePagesSandbox();

  it.each([
    ['4000000000000002', 'generic_decline', 'Your card was declined.'],
    ['4000000000009995', 'insufficient_funds', 'Your card has insufficient funds.'],
  ])('%s is declined at attach with %s', async (number, declineCode, message) => {
    const customer = await pages.stripe.customers.create({ email: 'declined@example.jp' });
    const error = await attachCard(pages.stripe, customer.id, number).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(error).toMatchObject({
      statusCode: 402,
      code: 'card_declined',
      decline_code: declineCode,
      message,
    });
    const cards = await pages.stripe.paymentMethods.list({ customer: customer.id, type: 'card' });
    expect(cards.data).toEqual([]);
  });

  it.each([
    ['4000000000000002', 'カードが拒否されました。別のカードをお試しください。'],
    [
      '4000000000009995',
      'カードのご利用可能額が不足しているため、お支払いできませんでした。別のカードをお試しください。',
    ],
  ])('the checkout page says why %s was declined, in Japanese', async (number, text) => {
    const session = await pages.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: pages.monthly.id, quantity: 1 }],
      customer_email: `page-${number}@example.jp`,
      success_url: 'https://axis.example.jp/welcome',
    });
    const page = await pages.postForm(new URL(session.url ?? '').pathname, cardFields(number));
    expect(page.status).toBe(402);
    expect(page.text).toContain(text);
    expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: 'open',
      subscription: null,
    });
  });

  describe('4000 0000 0000 0341: attaches, every charge declined', () => {
    /** A customer on a clock of its own and a checkout session selling it the monthly plan. */
    async function clockedSession(trialDays?: number) {
      const start = utc(2027, 4, 1);
      const successUrl = 'https://axis.example.jp/welcome';
      const checkout = await pages.clockedCheckout({
        label: '0341',
        start,
        successUrl,
        trialDays,
      });
      return { start, ...checkout };
    }

    it('attaches through the SDK and declines the charge of a new subscription', async () => {
      const customer = await pages.stripe.customers.create({ email: '0341-api@example.jp' });
      const card = await attachCard(pages.stripe, customer.id, FAILING_CARD);
      expect((await pages.stripe.paymentMethods.retrieve(card.id)).customer).toBe(customer.id);
      const created = await pages.stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: pages.monthly.id }],
      });
      expect(created.status).toBe('incomplete');
      const invoice = await pages.stripe.invoices.retrieve(created.latest_invoice as string);
      expect(invoice).toMatchObject({ status: 'open', attempt_count: 1, amount_paid: 0 });
      const error = await pages.stripe.invoices.pay(invoice.id).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
      expect(error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });
    });

    it('fails a checkout without a trial at payment, in Japanese, with no subscription', async () => {
      const { customer, session } = await clockedSession();
      const page = await pages.postForm(pathOf(session.url), cardFields(FAILING_CARD));
      expect(page.status).toBe(402);
      expect(page.text).toContain('カードが拒否されました。別のカードをお試しください。');
      expect(await pages.stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
        status: 'open',
        subscription: null,
      });
      const live = await pages.stripe.subscriptions.list({ customer: customer.id });
      expect(live.data).toEqual([]);
    });

    it('starts a trial, then the first charge after it fails: past_due', async () => {
      const { start, clock, customer, session } = await clockedSession(14);
      const page = await pages.postForm(pathOf(session.url), cardFields(FAILING_CARD));
      expect(page.status).toBe(303);
      const completed = await pages.stripe.checkout.sessions.retrieve(session.id);
      expect(completed).toMatchObject({
        status: 'complete',
        payment_status: 'no_payment_required',
      });
      const subscriptionId = completed.subscription as string;
      expect((await pages.stripe.subscriptions.retrieve(subscriptionId)).status).toBe('trialing');

      await pages.stripe.testHelpers.testClocks.advance(clock.id, {
        frozen_time: start + 15 * DAY,
      });
      const pastDue = await pages.stripe.subscriptions.retrieve(subscriptionId);
      expect(pastDue.status).toBe('past_due');
      const invoice = await pages.stripe.invoices.retrieve(pastDue.latest_invoice as string);
      expect(invoice).toMatchObject({
        status: 'open',
        amount_due: 1100,
        amount_paid: 0,
        attempt_count: 1,
        next_payment_attempt: start + 14 * DAY + 3 * DAY,
      });
      // What the site receives: the failed payment, then the subscription past_due.
      const events: Stripe.Event[] = [];
      for await (const event of pages.stripe.events.list({ limit: 100 })) {
        if ((event.data.object as { customer?: unknown }).customer === customer.id) {
          events.push(event);
        }
      }
      expect(
        events
          .reverse()
          .filter((event) => event.created === start + 14 * DAY)
          .map((event) => event.type),
      ).toEqual([
        'customer.subscription.updated',
        'invoice.created',
        'invoice.finalized',
        'invoice.payment_failed',
        'customer.subscription.updated',
      ]);
      expect(events.at(-1)).toMatchObject({
        data: { object: { status: 'past_due' }, previous_attributes: { status: 'active' } },
      });
    });
  });
});
