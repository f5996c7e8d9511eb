import type Stripe from 'stripe';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/server/platform/db/client';
import { billingSandboxObjects } from '@/server/platform/db/schema';
import { SANDBOX_API_VERSION } from './http';
import { customerWithCard, productWithPrices, useSandbox } from '@test-support/billing-sandbox';
import { DAY, utc } from '@test-support/unix-time';

/** Subscriptions, invoices, events and test clocks, driven over HTTP by the official SDK. */

describe('billing sandbox subscriptions, invoices and events', () => {
  const sandbox = useSandbox();
  let database: Database;
  let stripe: Stripe;
  let monthly: Stripe.Price;
  let premium: Stripe.Price;
  let yearly: Stripe.Price;

  beforeAll(async () => {
    ({ database, stripe } = sandbox);
    const price = await productWithPrices(stripe, { id: 'prod_member', name: '会員プラン' });
    monthly = await price(1100, 'month', 'monthly');
    premium = await price(2200, 'month', 'premium');
    yearly = await price(11000, 'year', 'yearly');
  });

  /** A customer with a 4242 card on a clock of its own, frozen at `start`. */
  const clockedCustomer = (start: number) => sandbox.clockedCustomer(start);
  /** Such a customer subscribed monthly, with those parameters. */
  const subscribed = (
    start: number,
    params: Omit<Stripe.SubscriptionCreateParams, 'customer' | 'items'> = {},
  ) => sandbox.subscribedCustomer(start, undefined, { items: [{ price: monthly.id }], ...params });

  const eventsOf = (customerId: string) => sandbox.customerEvents(customerId);

  const item = (subscription: Stripe.Subscription) => {
    const first = subscription.items.data[0];
    if (!first) throw new Error('no item');
    return first;
  };

  it('runs a 14-day trial, its first paid invoice and a renewal as the clock advances', async () => {
    const start = utc(2027, 1, 15);
    const { clock, customer } = await clockedCustomer(start);
    const subscription = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
      trial_period_days: 14,
      metadata: { userId: 'u1' },
    });
    const trialEnd = start + 14 * DAY;
    expect(subscription).toMatchObject({
      object: 'subscription',
      status: 'trialing',
      customer: customer.id,
      currency: 'jpy',
      test_clock: clock.id,
      trial_start: start,
      trial_end: trialEnd,
      start_date: start,
      billing_cycle_anchor: trialEnd,
      cancel_at_period_end: false,
      metadata: { userId: 'u1' },
    });
    expect(subscription.lastResponse.apiVersion).toBe(SANDBOX_API_VERSION);
    expect(item(subscription)).toMatchObject({
      object: 'subscription_item',
      current_period_start: start,
      current_period_end: trialEnd,
      price: { id: monthly.id },
      plan: { id: monthly.id, amount: 1100, interval: 'month' },
    });
    const trialInvoice = await stripe.invoices.retrieve(subscription.latest_invoice as string);
    expect(trialInvoice).toMatchObject({
      status: 'paid',
      billing_reason: 'subscription_create',
      total: 0,
      amount_due: 0,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: subscription.id },
      },
    });
    expect(trialInvoice.lines.data[0]).toMatchObject({
      amount: 0,
      description: 'Trial period for 会員プラン',
      period: { start, end: trialEnd },
    });

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: trialEnd + DAY });
    const active = await stripe.subscriptions.retrieve(subscription.id);
    expect(active.status).toBe('active');
    // Anchored on the trial's end, 29 Jan: the next boundary is the last day of February.
    const february = utc(2027, 2, 28);
    expect(item(active)).toMatchObject({
      current_period_start: trialEnd,
      current_period_end: february,
    });
    const firstPaid = await stripe.invoices.retrieve(active.latest_invoice as string);
    expect(firstPaid).toMatchObject({
      status: 'paid',
      billing_reason: 'subscription_cycle',
      currency: 'jpy',
      subtotal: 1100,
      total: 1100,
      amount_due: 1100,
      amount_paid: 1100,
      amount_remaining: 0,
      subtotal_excluding_tax: 1000,
      total_excluding_tax: 1000,
      total_taxes: [
        {
          amount: 100,
          tax_behavior: 'inclusive',
          taxable_amount: 1000,
          type: 'tax_rate_details',
          tax_rate_details: { tax_rate: 'txr_sandbox_jp_consumption_10' },
        },
      ],
      created: trialEnd,
      period_start: start,
      period_end: trialEnd,
      customer: customer.id,
      test_clock: clock.id,
    });
    expect(firstPaid.number).toMatch(/^[0-9A-F]{8}-0002$/);
    expect(firstPaid.lines.data[0]).toMatchObject({
      amount: 1100,
      description: '1 × 会員プラン (at ¥1,100 / month)',
      period: { start: trialEnd, end: february },
      taxes: [{ amount: 100, taxable_amount: 1000 }],
      pricing: { price_details: { price: monthly.id, product: 'prod_member' } },
    });
    const taxRate = await stripe.taxRates.retrieve('txr_sandbox_jp_consumption_10');
    expect(taxRate).toMatchObject({ percentage: 10, inclusive: true, country: 'JP' });

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 3, 1) });
    const renewed = await stripe.subscriptions.retrieve(subscription.id);
    expect(item(renewed)).toMatchObject({
      current_period_start: february,
      current_period_end: utc(2027, 3, 29),
    });
    const invoices = await stripe.invoices.list({ subscription: subscription.id });
    expect(invoices.data.map((invoice) => [invoice.billing_reason, invoice.total])).toEqual([
      ['subscription_cycle', 1100],
      ['subscription_cycle', 1100],
      ['subscription_create', 0],
    ]);

    const events = await eventsOf(customer.id);
    const invoiceEvents = [
      'invoice.created',
      'invoice.finalized',
      'invoice.paid',
      'invoice.payment_succeeded',
    ];
    expect(events.map((event) => event.type)).toEqual([
      'customer.subscription.created',
      ...invoiceEvents,
      'customer.subscription.trial_will_end',
      'customer.subscription.updated',
      ...invoiceEvents,
      'customer.subscription.updated',
      ...invoiceEvents,
    ]);
    expect(events.map((event) => event.created)).toEqual([
      ...Array<number>(5).fill(start),
      trialEnd - 3 * DAY,
      ...Array<number>(5).fill(trialEnd),
      ...Array<number>(5).fill(february),
    ]);
    const trialEnded = events[6] as Stripe.CustomerSubscriptionUpdatedEvent;
    expect(trialEnded).toMatchObject({
      object: 'event',
      api_version: SANDBOX_API_VERSION,
      livemode: false,
      data: {
        object: { id: subscription.id, status: 'active' },
        previous_attributes: { status: 'trialing', latest_invoice: trialInvoice.id },
      },
    });
    expect(events[7]?.data.object).toMatchObject({ status: 'draft', number: null });
    expect(await stripe.events.retrieve(trialEnded.id)).toMatchObject({ id: trialEnded.id });
    const paidEvents = await stripe.events.list({ type: 'invoice.paid', limit: 100 });
    expect(paidEvents.data.every((event) => event.type === 'invoice.paid')).toBe(true);
  });

  it('cancels at the period end when the clock passes it', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer, created } = await subscribed(start);
    expect(created.status).toBe('active');
    const end = utc(2027, 5, 1);
    expect(item(created)).toMatchObject({ current_period_start: start, current_period_end: end });
    const firstInvoice = await stripe.invoices.retrieve(created.latest_invoice as string);
    expect(firstInvoice).toMatchObject({ billing_reason: 'subscription_create', total: 1100 });

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + 3 * DAY });
    const canceling = await stripe.subscriptions.update(created.id, { cancel_at_period_end: true });
    expect(canceling).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      cancel_at: end,
      canceled_at: start + 3 * DAY,
      cancellation_details: { reason: 'cancellation_requested' },
    });

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: end + DAY });
    const canceled = await stripe.subscriptions.retrieve(created.id);
    expect(canceled).toMatchObject({
      status: 'canceled',
      ended_at: end,
      canceled_at: start + 3 * DAY,
    });
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);
    const types = (await eventsOf(customer.id)).map((event) => event.type);
    expect(types.slice(-2)).toEqual([
      'customer.subscription.updated',
      'customer.subscription.deleted',
    ]);
    const updatedEvent = (await eventsOf(customer.id)).at(-2);
    expect(updatedEvent?.data.previous_attributes).toMatchObject({
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
    });
  });

  it('resumes a subscription set to cancel, which then renews', async () => {
    const start = utc(2027, 4, 1);
    const { clock, created } = await subscribed(start, { cancel_at_period_end: true });
    expect(created).toMatchObject({ cancel_at_period_end: true, cancel_at: utc(2027, 5, 1) });
    const resumed = await stripe.subscriptions.update(created.id, { cancel_at_period_end: false });
    expect(resumed).toMatchObject({
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
    });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 5, 2) });
    const renewed = await stripe.subscriptions.retrieve(created.id);
    expect(renewed.status).toBe('active');
    expect(item(renewed).current_period_end).toBe(utc(2027, 6, 1));
    expect((await stripe.invoices.list({ subscription: created.id })).data).toHaveLength(2);
  });

  it('cancels now, refuses to change what is canceled, and lists by status', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer, created } = await subscribed(start);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: start + DAY });
    const canceled = await stripe.subscriptions.cancel(created.id);
    expect(canceled).toMatchObject({
      status: 'canceled',
      canceled_at: start + DAY,
      ended_at: start + DAY,
      cancel_at_period_end: false,
    });
    const types = (await eventsOf(customer.id)).map((event) => event.type);
    expect(types.at(-1)).toBe('customer.subscription.deleted');
    await expect(
      stripe.subscriptions.update(created.id, { cancel_at_period_end: true }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 400 });
    await expect(stripe.subscriptions.cancel(created.id)).rejects.toMatchObject({
      statusCode: 400,
    });

    const live = await stripe.subscriptions.list({ customer: customer.id });
    expect(live.data).toHaveLength(0);
    const all = await stripe.subscriptions.list({ customer: customer.id, status: 'all' });
    expect(all.data.map((s) => s.id)).toEqual([created.id]);
    const byStatus = await stripe.subscriptions.list({ customer: customer.id, status: 'canceled' });
    expect(byStatus.data.map((s) => s.id)).toEqual([created.id]);
    // The clock advances nothing that is canceled.
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 7, 1) });
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);
  });

  it('changes plan within the cycle with prorations billed at the renewal', async () => {
    const start = utc(2027, 4, 1); // April has 30 days: the 16th is half way
    const { clock, created } = await subscribed(start);
    const half = start + 15 * DAY;
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: half });
    const upgraded = await stripe.subscriptions.update(created.id, {
      items: [{ id: item(created).id, price: premium.id }],
      proration_behavior: 'create_prorations',
    });
    expect(item(upgraded)).toMatchObject({
      id: item(created).id,
      price: { id: premium.id },
      plan: { amount: 2200 },
      current_period_start: start,
      current_period_end: utc(2027, 5, 1),
    });
    expect(upgraded.latest_invoice).toBe(created.latest_invoice);

    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 5, 2) });
    const renewal = await stripe.invoices.retrieve(
      (await stripe.subscriptions.retrieve(created.id)).latest_invoice as string,
    );
    expect(
      renewal.lines.data.map((line) => [
        line.amount,
        line.parent?.subscription_item_details?.proration,
      ]),
    ).toEqual([
      [2200, false],
      [-550, true],
      [1100, true],
    ]);
    expect(renewal.lines.data[1]?.description).toBe('Unused time on 会員プラン after 16 Apr 2027');
    expect(renewal.lines.data[1]?.period).toEqual({ start: half, end: utc(2027, 5, 1) });
    expect(renewal).toMatchObject({
      subtotal: 2750,
      total: 2750,
      amount_due: 2750,
      total_taxes: [{ amount: 250, taxable_amount: 2500 }],
      total_excluding_tax: 2500,
    });

    // Without prorations the price changes and nothing is billed until the renewal.
    const downgraded = await stripe.subscriptions.update(created.id, {
      items: [{ id: item(created).id, price: monthly.id }],
      proration_behavior: 'none',
    });
    expect(item(downgraded).price.id).toBe(monthly.id);
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 6, 2) });
    const next = await stripe.invoices.list({ subscription: created.id, limit: 1 });
    expect(next.data[0]?.lines.data.map((line) => line.amount)).toEqual([1100]);
  });

  it('changes to another interval by restarting the cycle and invoicing at once', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer, created } = await subscribed(start);
    const half = start + 15 * DAY;
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: half });
    const toYearly = await stripe.subscriptions.update(created.id, {
      items: [{ id: item(created).id, price: yearly.id }],
    });
    expect(toYearly.billing_cycle_anchor).toBe(half);
    expect(item(toYearly)).toMatchObject({
      current_period_start: half,
      current_period_end: utc(2028, 4, 16),
    });
    const invoice = await stripe.invoices.retrieve(toYearly.latest_invoice as string);
    expect(invoice).toMatchObject({
      billing_reason: 'subscription_update',
      total: 10450,
      amount_due: 10450,
      created: half,
    });
    expect(invoice.lines.data.map((line) => line.amount)).toEqual([-550, 11000]);

    // Back to monthly right away: the unused year is more than a month costs, so the rest
    // stays as the customer's credit and pays the following invoices.
    const toMonthly = await stripe.subscriptions.update(created.id, {
      items: [{ id: item(created).id, price: monthly.id }],
    });
    const credit = await stripe.invoices.retrieve(toMonthly.latest_invoice as string);
    expect(credit).toMatchObject({ total: 1100 - 11000, amount_due: 0, ending_balance: -9900 });
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      balance: -9900,
    });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2027, 5, 17) });
    const renewal = await stripe.invoices.list({ subscription: created.id, limit: 1 });
    expect(renewal.data[0]).toMatchObject({
      total: 1100,
      amount_due: 0,
      starting_balance: -9900,
      ending_balance: -8800,
    });
  });

  it('leaves nothing half-advanced when an advance fails', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer } = await clockedCustomer(start);
    const other = await customerWithCard(stripe, { test_clock: clock.id });
    const sound = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
    });
    const broken = await stripe.subscriptions.create({
      customer: other.id,
      items: [{ price: yearly.id }],
    });
    // A yearly period no boundary can be found for: its renewal fails after the sound
    // subscription's monthly renewal has been written within the same advance.
    await database.db
      .update(billingSandboxObjects)
      .set({
        data: sql`jsonb_set(${billingSandboxObjects.data}, '{items,data,0,price,recurring,interval}', '"fortnight"')`,
      })
      .where(eq(billingSandboxObjects.id, broken.id));
    const eventsBefore = (await eventsOf(customer.id)).length;
    await expect(
      stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: utc(2028, 4, 2) }),
    ).rejects.toMatchObject({ type: 'StripeAPIError', statusCode: 500 });
    expect((await stripe.testHelpers.testClocks.retrieve(clock.id)).frozen_time).toBe(start);
    const after = await stripe.subscriptions.retrieve(sound.id);
    expect(after.latest_invoice).toBe(sound.latest_invoice);
    expect(item(after).current_period_end).toBe(utc(2027, 5, 1));
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);
    expect(await eventsOf(customer.id)).toHaveLength(eventsBefore);
  });

  it('lists by customer, price and status, and keeps test-clock subscriptions apart', async () => {
    const plain = await customerWithCard(stripe, { email: 'plain@example.jp' });
    const subscription = await stripe.subscriptions.create({
      customer: plain.id,
      items: [{ price: premium.id }],
    });
    expect(subscription.test_clock).toBeNull();
    const byPrice = await stripe.subscriptions.list({ price: premium.id });
    expect(byPrice.data.map((s) => s.id)).toEqual([subscription.id]);
    expect((await stripe.subscriptions.list({ price: yearly.id })).data).toHaveLength(0);
    const byCustomer = await stripe.subscriptions.list({ customer: plain.id, status: 'active' });
    expect(byCustomer.data.map((s) => s.id)).toEqual([subscription.id]);
    expect(
      (await stripe.subscriptions.list({ customer: plain.id, status: 'trialing' })).data,
    ).toHaveLength(0);
    const invoices = await stripe.invoices.list({ customer: plain.id, status: 'paid' });
    expect(invoices.data).toHaveLength(1);
    expect((await stripe.invoices.list({ customer: plain.id, status: 'open' })).data).toHaveLength(
      0,
    );
    const { clock } = await clockedCustomer(utc(2027, 4, 1));
    expect((await stripe.subscriptions.list({ test_clock: clock.id })).data).toHaveLength(0);
  });

  it('expands latest_invoice, customer and item prices', async () => {
    const customer = await customerWithCard(stripe, { email: 'expand@example.jp' });
    const created = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
    });
    const expanded = await stripe.subscriptions.retrieve(created.id, {
      expand: ['latest_invoice', 'customer', 'items.data.price.product'],
    });
    expect(expanded.latest_invoice).toMatchObject({ object: 'invoice', total: 1100 });
    expect(expanded.customer).toMatchObject({ object: 'customer', id: customer.id });
    expect(item(expanded).price.product).toMatchObject({ object: 'product', name: '会員プラン' });
    const listed = await stripe.subscriptions.list({
      customer: customer.id,
      expand: ['data.items.data.price', 'data.latest_invoice'],
    });
    expect(listed.data[0]?.latest_invoice).toMatchObject({ object: 'invoice' });
    const invoice = await stripe.invoices.retrieve(created.latest_invoice as string, {
      expand: ['parent.subscription_details.subscription', 'customer'],
    });
    expect(invoice.parent?.subscription_details?.subscription).toMatchObject({ id: created.id });
    await expect(
      stripe.subscriptions.retrieve(created.id, { expand: ['items.data.nothing'] }),
    ).rejects.toMatchObject({ type: 'StripeInvalidRequestError' });
  });

  it('answers missing objects and bad parameters as Stripe does', async () => {
    await expect(stripe.subscriptions.retrieve('sub_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });
    await expect(stripe.invoices.retrieve('in_missing')).rejects.toMatchObject({ statusCode: 404 });
    await expect(stripe.events.retrieve('evt_missing')).rejects.toMatchObject({ statusCode: 404 });
    await expect(stripe.subscriptions.cancel('sub_missing')).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(
      stripe.subscriptions.create({ customer: 'cus_missing', items: [{ price: monthly.id }] }),
    ).rejects.toMatchObject({ statusCode: 404, param: 'customer' });
    const customer = await customerWithCard(stripe, { email: 'bad@example.jp' });
    await expect(
      stripe.subscriptions.create({ customer: customer.id, items: [{ price: 'price_missing' }] }),
    ).rejects.toMatchObject({ statusCode: 404, param: 'items[0][price]' });
    await expect(stripe.subscriptions.create({ customer: customer.id })).rejects.toMatchObject({
      statusCode: 400,
      param: 'items[0][price]',
    });
    const created = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
    });
    await expect(
      stripe.subscriptions.update(created.id, { items: [{ id: 'si_other', price: premium.id }] }),
    ).rejects.toMatchObject({ statusCode: 404, param: 'items[0][id]' });
    await expect(
      stripe.subscriptions.update(created.id, { items: [{ quantity: 2 }] }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'items[0][id]' });
  });
  it('moves the next charge with trial_end and proration_behavior none, billing nothing now', async () => {
    const start = utc(2027, 1, 15);
    const { clock, created } = await subscribed(start);
    expect(created.status).toBe('active');
    const invoicesBefore = (await stripe.invoices.list({ subscription: created.id })).data.length;
    // In the past, or with prorations: refused as Stripe refuses it (or the sandbox does not do it).
    await expect(
      stripe.subscriptions.update(created.id, {
        trial_end: start - DAY,
        proration_behavior: 'none',
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'trial_end' });
    await expect(
      stripe.subscriptions.update(created.id, { trial_end: start + 90 * DAY }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'trial_end' });
    const end = item(created).current_period_end + 90 * DAY;
    const moved = await stripe.subscriptions.update(created.id, {
      trial_end: end,
      proration_behavior: 'none',
    });
    expect(moved).toMatchObject({ status: 'trialing', trial_end: end, billing_cycle_anchor: end });
    expect(item(moved)).toMatchObject({ current_period_start: start, current_period_end: end });
    const events = await eventsOf(moved.customer as string);
    expect(events.at(-1)).toMatchObject({
      type: 'customer.subscription.updated',
      data: { previous_attributes: { status: 'active' } },
    });
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: end - DAY });
    const waiting = await stripe.subscriptions.retrieve(created.id);
    expect(waiting.status).toBe('trialing');
    expect((await stripe.invoices.list({ subscription: created.id })).data).toHaveLength(
      invoicesBefore,
    );
    await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: end + DAY });
    const charged = await stripe.subscriptions.retrieve(created.id);
    expect(charged.status).toBe('active');
    const latest = await stripe.invoices.retrieve(charged.latest_invoice as string);
    expect(latest).toMatchObject({ status: 'paid', amount_paid: 1100, created: end });
  });
});
