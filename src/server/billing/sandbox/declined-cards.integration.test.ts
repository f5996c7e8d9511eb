import Stripe from 'stripe';
import { describe, expect, it } from 'vitest';
import { attachCard } from '@test-support/billing-sandbox';
import { cardFields, usePagesSandbox } from '@test-support/billing-sandbox-pages';

/**
 * Stripe's declined test cards as the official SDK sees them, with their decline codes, and
 * the Japanese message the hosted checkout page gives for each.
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
});
