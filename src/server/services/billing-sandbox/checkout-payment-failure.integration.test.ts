import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAILING_CARD, attachCard, useSandbox } from '@test-support/billing-sandbox';

/**
 * The checkout page when the first charge fails: 4000 0000 0000 0341 attaches and every charge
 * on it is declined, as on Stripe, so a checkout without a trial fails at payment.
 */
describe('the checkout page when the first charge fails', () => {
  const sandbox = useSandbox();
  let stripe: Stripe;
  let base: string;
  let monthly: Stripe.Price;

  beforeAll(async () => {
    ({ stripe } = sandbox);
    base = `http://127.0.0.1:${sandbox.port}`;
    await stripe.products.create({ id: 'prod_axis', name: 'AXIS 会員' });
    monthly = await stripe.prices.create({
      product: 'prod_axis',
      currency: 'jpy',
      unit_amount: 1100,
      recurring: { interval: 'month' },
    });
  });

  async function submit(session: Stripe.Checkout.Session) {
    const response = await fetch(session.url ?? '', {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
      body: new URLSearchParams({
        number: FAILING_CARD,
        exp: `12/${(new Date().getUTCFullYear() + 3) % 100}`,
        cvc: '123',
        name: 'TARO YAMADA',
      }).toString(),
    });
    return { status: response.status, text: await response.text() };
  }

  const create = (params: Partial<Stripe.Checkout.SessionCreateParams>) =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price: monthly.id, quantity: 1 }],
      success_url: 'https://axis.example.jp/welcome',
      ...params,
    });

  it('cancels the incomplete subscription, keeps the previous card and the session open', async () => {
    const customer = await stripe.customers.create({ email: 'declined@example.jp' });
    const previous = await attachCard(stripe, customer.id);
    const session = await create({ customer: customer.id });

    const page = await submit(session);
    expect(page.status).toBe(402);
    expect(page.text).toContain('カードが拒否されました。別のカードをお試しください。');
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({
      status: 'open',
      subscription: null,
    });
    const subscriptions = await stripe.subscriptions.list({
      customer: customer.id,
      status: 'all',
    });
    expect(subscriptions.data.map((subscription) => subscription.status)).toEqual(['canceled']);
    const after = (await stripe.customers.retrieve(customer.id)) as Stripe.Customer;
    expect(after.invoice_settings.default_payment_method).toBe(previous.id);
    const cards = await stripe.customers.listPaymentMethods(customer.id);
    expect(cards.data.map((card) => card.id)).toEqual([previous.id]);
  });

  it('pays again as the customer the failed attempt made', async () => {
    const session = await create({ customer_email: 'retry@example.jp' });
    expect((await submit(session)).status).toBe(402);
    expect((await submit(session)).status).toBe(402);
    const customers = await stripe.customers.list({ email: 'retry@example.jp' });
    expect(customers.data).toHaveLength(1);
    const customer = customers.data[0];
    expect(customer?.invoice_settings.default_payment_method).toBeNull();
    const subscriptions = await stripe.subscriptions.list({
      customer: customer?.id,
      status: 'all',
    });
    expect(subscriptions.data.map((subscription) => subscription.status)).toEqual([
      'canceled',
      'canceled',
    ]);
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('open');
  });
});
