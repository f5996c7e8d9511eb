import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { productWithPrices, useSandbox } from '@test-support/billing-sandbox';
import { DAY, utc } from '@test-support/unix-time';
import { advanceClocklessSubscriptions } from './cycle/clock';

/**
 * 請求書払い: subscriptions with `collection_method: send_invoice` paid by bank transfer to the
 * customer's virtual account (`customer_balance`, `jp_bank_transfer`), seats as the item's
 * quantity, driven over HTTP by the official SDK as on Stripe.
 */

const BANK_TRANSFER: Stripe.SubscriptionCreateParams.PaymentSettings = {
  payment_method_types: ['customer_balance'],
  payment_method_options: {
    customer_balance: {
      funding_type: 'bank_transfer',
      bank_transfer: { type: 'jp_bank_transfer' },
    },
  },
};

describe('billing sandbox: invoices paid by bank transfer', () => {
  const sandbox = useSandbox();
  let stripe: Stripe;
  let seat: Stripe.Price;

  beforeAll(async () => {
    ({ stripe } = sandbox);
    const price = await productWithPrices(stripe, { id: 'prod_org_seat', name: '法人プラン' });
    seat = await price(11000, 'month', 'org-seat-monthly');
  });

  /** A customer without a card on a clock of its own, invoiced for `seats` seats. */
  async function invoiced(start: number, seats = 3, daysUntilDue = 30) {
    const { clock, customer } = await sandbox.clockedCustomer(start, null);
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: seat.id, quantity: seats }],
      collection_method: 'send_invoice',
      days_until_due: daysUntilDue,
      payment_settings: BANK_TRANSFER,
    });
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string);
    return { clock, customer, subscription, invoice };
  }

  const fund = (customer: string, amount: number) =>
    stripe.testHelpers.customers.fundCashBalance(customer, {
      amount,
      currency: 'jpy',
      reference: 'ｶ)ﾃｽﾄｼｮｳｼﾞ',
    });

  const typesOf = async (customer: string) =>
    (await sandbox.customerEvents(customer)).map((event) => event.type);

  it('starts active with an open invoice due in days_until_due, sent and never charged', async () => {
    const start = utc(2027, 4, 1);
    const { customer, subscription, invoice } = await invoiced(start);
    expect(subscription).toMatchObject({
      status: 'active',
      collection_method: 'send_invoice',
      days_until_due: 30,
      payment_settings: BANK_TRANSFER,
    });
    expect(subscription.items.data[0]).toMatchObject({ quantity: 3, price: { id: seat.id } });
    expect(invoice).toMatchObject({
      status: 'open',
      collection_method: 'send_invoice',
      due_date: start + 30 * DAY,
      amount_due: 33000,
      amount_remaining: 33000,
      amount_paid: 0,
      attempt_count: 0,
      attempted: false,
      next_payment_attempt: null,
      payment_settings: BANK_TRANSFER,
      total_taxes: [expect.objectContaining({ amount: 3000, taxable_amount: 30000 })],
    });
    expect(invoice.lines.data[0]).toMatchObject({
      amount: 33000,
      quantity: 3,
      description: '3 × 法人プラン (at ¥11,000 / month)',
    });
    expect(await typesOf(customer.id)).toEqual([
      'customer.subscription.created',
      'invoice.created',
      'invoice.finalized',
      'invoice.sent',
    ]);
  });

  it('refuses send_invoice without days_until_due, and days_until_due without send_invoice', async () => {
    const { customer } = await sandbox.clockedCustomer(utc(2027, 4, 1), null);
    await expect(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: seat.id, quantity: 2 }],
        collection_method: 'send_invoice',
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'days_until_due' });
    await expect(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: seat.id }],
        days_until_due: 30,
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'days_until_due' });
    const none = await stripe.subscriptions.list({ customer: customer.id, status: 'all' });
    expect(none.data).toEqual([]);
  });

  it("gives the customer one virtual account in Zengin format (the invoice's transfer details)", async () => {
    const { customer } = await invoiced(utc(2027, 4, 1));
    const ask = () =>
      stripe.customers.createFundingInstructions(customer.id, {
        currency: 'jpy',
        funding_type: 'bank_transfer',
        bank_transfer: { type: 'jp_bank_transfer' },
      });
    const instructions = await ask();
    expect(instructions).toMatchObject({
      object: 'funding_instructions',
      currency: 'jpy',
      funding_type: 'bank_transfer',
      livemode: false,
      bank_transfer: { country: 'JP', type: 'jp_bank_transfer' },
    });
    const [address] = instructions.bank_transfer.financial_addresses;
    expect(address).toMatchObject({ type: 'zengin', supported_networks: ['zengin'] });
    const zengin = address?.zengin;
    expect(zengin?.bank_code).toMatch(/^\d{4}$/);
    expect(zengin?.branch_code).toMatch(/^\d{3}$/);
    expect(zengin?.account_number).toMatch(/^\d{7}$/);
    expect(zengin?.account_type).toBe('futsu');
    for (const field of [zengin?.bank_name, zengin?.branch_name, zengin?.account_holder_name]) {
      expect(field).toMatch(/\S/);
    }
    expect((await ask()).bank_transfer).toEqual(instructions.bank_transfer);
    await expect(
      stripe.customers.createFundingInstructions(customer.id, {
        currency: 'jpy',
        funding_type: 'bank_transfer',
        bank_transfer: { type: 'eu_bank_transfer' },
      }),
    ).rejects.toMatchObject({ statusCode: 400 });
  });

  it('keeps a partial transfer in the cash balance and pays the invoice once the rest arrives', async () => {
    const { customer, subscription, invoice } = await invoiced(utc(2027, 4, 1));
    const partial = await fund(customer.id, 20000);
    expect(partial).toMatchObject({
      object: 'customer_cash_balance_transaction',
      type: 'funded',
      currency: 'jpy',
      customer: customer.id,
      net_amount: 20000,
      ending_balance: 20000,
      funded: { bank_transfer: { type: 'jp_bank_transfer', reference: 'ｶ)ﾃｽﾄｼｮｳｼﾞ' } },
    });
    // As on Stripe, an invoice is not partly funded: it stays open for the whole amount.
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({
      status: 'open',
      amount_remaining: 33000,
    });
    expect(await stripe.customers.retrieveCashBalance(customer.id)).toMatchObject({
      object: 'cash_balance',
      customer: customer.id,
      available: { jpy: 20000 },
      settings: { reconciliation_mode: 'automatic' },
    });

    await fund(customer.id, 15000);
    const paid = await stripe.invoices.retrieve(invoice.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 33000, amount_remaining: 0 });
    expect(await stripe.customers.retrieveCashBalance(customer.id)).toMatchObject({
      available: { jpy: 2000 },
    });
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'active',
    });
    const types = await typesOf(customer.id);
    expect(types.slice(4)).toEqual([
      'customer_cash_balance_transaction.created',
      'customer_cash_balance_transaction.created',
      'customer_cash_balance_transaction.created',
      'invoice.paid',
      'invoice.payment_succeeded',
    ]);
    const events = await sandbox.customerEvents(customer.id);
    const applied = events[6]?.data.object as Stripe.CustomerCashBalanceTransaction;
    expect(applied).toMatchObject({
      type: 'applied_to_payment',
      net_amount: -33000,
      ending_balance: 2000,
    });
  });

  it('marks an unpaid invoice overdue at its due date and the subscription past_due; paying makes it active', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer, subscription, invoice } = await invoiced(start, 2, 14);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 15 * DAY });
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'past_due',
    });
    const types = await typesOf(customer.id);
    expect(types.slice(4)).toEqual(['invoice.overdue', 'customer.subscription.updated']);
    await fund(customer.id, 22000);
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'paid' });
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'active',
    });
  });

  it("marks a clockless customer's invoice overdue when the runner passes its due date", async () => {
    const customer = await stripe.customers.create({ name: '株式会社リアルタイム' });
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: seat.id }],
      collection_method: 'send_invoice',
      days_until_due: 1,
      payment_settings: BANK_TRANSFER,
    });
    const invoice = await stripe.invoices.retrieve(subscription.latest_invoice as string);
    const due = invoice.due_date ?? 0;
    expect(await advanceClocklessSubscriptions(sandbox.database.db, due - 1)).toBe(0);
    expect(await advanceClocklessSubscriptions(sandbox.database.db, due)).toBe(1);
    expect(await stripe.subscriptions.retrieve(subscription.id)).toMatchObject({
      status: 'past_due',
    });
    expect(await typesOf(customer.id)).toContain('invoice.overdue');
  });

  it('applies funds held in the cash balance to the renewal invoice as it is finalized', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer, subscription, invoice } = await invoiced(start, 1);
    await fund(customer.id, 11000 * 2);
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({ status: 'paid' });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 5, 1) });
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    const renewal = await stripe.invoices.retrieve(renewed.latest_invoice as string);
    expect(renewal).toMatchObject({
      billing_reason: 'subscription_cycle',
      status: 'paid',
      amount_paid: 11000,
      due_date: utc(2027, 5, 1) + 30 * DAY,
    });
    expect(await stripe.customers.retrieveCashBalance(customer.id)).toMatchObject({
      available: { jpy: 0 },
    });
  });

  it('adds seats mid-period with always_invoice: an invoice of the prorated seats, due in days_until_due', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer, subscription } = await invoiced(start, 2);
    // Half of April (30 days) is left.
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 15 * DAY });
    const item = subscription.items.data[0];
    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item?.id, quantity: 5 }],
      proration_behavior: 'always_invoice',
    });
    expect(updated.items.data[0]).toMatchObject({ quantity: 5 });
    const invoice = await stripe.invoices.retrieve(updated.latest_invoice as string);
    expect(invoice).toMatchObject({
      billing_reason: 'subscription_update',
      status: 'open',
      collection_method: 'send_invoice',
      due_date: start + 15 * DAY + 30 * DAY,
      amount_due: 5 * 5500 - 2 * 5500,
    });
    expect(invoice.lines.data.map((line) => [line.amount, line.quantity])).toEqual([
      [-11000, 2],
      [27500, 5],
    ]);
    expect(
      invoice.lines.data.every((line) => line.parent?.subscription_item_details?.proration),
    ).toBe(true);
    expect(await typesOf(customer.id)).toContain('invoiceitem.created');
  });

  it('removes seats at renewal with proration_behavior none: nothing now, fewer seats billed next', async () => {
    const start = utc(2027, 4, 1);
    const { clock, subscription } = await invoiced(start, 4);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 10 * DAY });
    const updated = await stripe.subscriptions.update(subscription.id, {
      items: [{ id: subscription.items.data[0]?.id, quantity: 1 }],
      proration_behavior: 'none',
    });
    expect(updated.latest_invoice).toBe(subscription.latest_invoice);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 5, 1) });
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    const renewal = await stripe.invoices.retrieve(renewed.latest_invoice as string);
    expect(renewal).toMatchObject({ amount_due: 11000, status: 'open' });
    expect(renewal.lines.data.map((line) => line.quantity)).toEqual([1]);
  });
});
