import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { productWithPrices, useSandbox } from '@test-support/billing-sandbox';
import { utc } from '@test-support/unix-time';

/** Invoice payments and refunds, driven over HTTP by the official SDK, as on Stripe. */

describe('billing sandbox refunds', () => {
  const sandbox = useSandbox();
  let stripe: Stripe;
  let monthly: Stripe.Price;

  beforeAll(async () => {
    ({ stripe } = sandbox);
    const price = await productWithPrices(stripe, { id: 'prod_refunds', name: '会員プラン' });
    monthly = await price(1100, 'month');
  });

  /** A paid first invoice of a monthly plan, and its payment's PaymentIntent id. */
  async function paidInvoice() {
    const { customer, created } = await sandbox.subscribedCustomer(
      utc(2026, 11, 1),
      '4242424242424242',
      { items: [{ price: monthly.id }] },
    );
    const invoice = await stripe.invoices.retrieve(created.latest_invoice as string);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 1100 });
    const payments = await stripe.invoicePayments.list({ invoice: invoice.id });
    expect(payments.data).toHaveLength(1);
    const [payment] = payments.data;
    expect(payment).toMatchObject({
      object: 'invoice_payment',
      invoice: invoice.id,
      amount_paid: 1100,
      is_default: true,
      status: 'paid',
      payment: { type: 'payment_intent' },
    });
    const paymentIntent = payment!.payment.payment_intent as string;
    expect(paymentIntent).toMatch(/^pi_/);
    return { customer, invoice, paymentIntent };
  }

  it('refunds a payment in part, then the rest, and refuses more', async () => {
    const { customer, paymentIntent } = await paidInvoice();
    const part = await stripe.refunds.create({
      payment_intent: paymentIntent,
      amount: 100,
      reason: 'requested_by_customer',
      metadata: { note: '一部' },
    });
    expect(part).toMatchObject({
      object: 'refund',
      amount: 100,
      currency: 'jpy',
      payment_intent: paymentIntent,
      reason: 'requested_by_customer',
      status: 'succeeded',
      metadata: { note: '一部' },
    });
    expect(part.id).toMatch(/^re_/);
    const tooMuch = await stripe.refunds
      .create({ payment_intent: paymentIntent, amount: 1001 })
      .catch((error: unknown) => error);
    expect(tooMuch).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(tooMuch).toMatchObject({ statusCode: 400, code: 'amount_too_large', param: 'amount' });

    const rest = await stripe.refunds.create({ charge: part.charge as string });
    expect(rest.amount).toBe(1000);
    const again = await stripe.refunds
      .create({ payment_intent: paymentIntent })
      .catch((error: unknown) => error);
    expect(again).toMatchObject({ statusCode: 400, code: 'charge_already_refunded' });

    expect((await stripe.refunds.retrieve(part.id)).amount).toBe(100);
    const listed = await stripe.refunds.list({ payment_intent: paymentIntent });
    expect(listed.data.map((refund) => refund.id)).toEqual([rest.id, part.id]);
    const events = await sandbox.customerEvents(customer.id);
    expect(events.some((event) => event.type === 'invoice.paid')).toBe(true);
    const refundEvents: Stripe.Event[] = [];
    for await (const event of stripe.events.list({ limit: 100 })) {
      if (event.type === 'refund.created') refundEvents.push(event);
    }
    expect(refundEvents.map((event) => (event.data.object as Stripe.Refund).id)).toEqual(
      expect.arrayContaining([part.id, rest.id]),
    );
  });

  it('answers as Stripe does for a missing or unknown payment, and a trial’s ¥0 invoice', async () => {
    const missing = await stripe.refunds.create({}).catch((error: unknown) => error);
    expect(missing).toMatchObject({ statusCode: 400, type: 'StripeInvalidRequestError' });
    const unknown = await stripe.refunds
      .create({ payment_intent: 'pi_nothing' })
      .catch((error: unknown) => error);
    expect(unknown).toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
      param: 'payment_intent',
    });

    const { created } = await sandbox.subscribedCustomer(utc(2026, 11, 1), '4242424242424242', {
      items: [{ price: monthly.id }],
      trial_period_days: 14,
    });
    const trialInvoice = created.latest_invoice as string;
    expect((await stripe.invoicePayments.list({ invoice: trialInvoice })).data).toEqual([]);
  });
});
