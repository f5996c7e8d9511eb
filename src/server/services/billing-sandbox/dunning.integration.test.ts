import Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@/server/platform/db/client';
import { advanceClocklessSubscriptions } from './cycle/clock';
import {
  attachCard,
  FAILING_CARD,
  customerWithCard,
  expectCardDeclined,
  productWithPrices,
  switchToFailingCard,
  useSandbox,
} from '@test-support/billing-sandbox';
import { DAY, utc } from '@test-support/unix-time';

/**
 * Charging invoices to the customer's card, failed payments and dunning (past_due, retries 3,
 * 5 and 7 days after the failure, then cancellation), incomplete subscriptions, trial notices
 * and invoices.pay, driven over HTTP by the official SDK.
 */

const HOUR = 60 * 60;

describe('billing sandbox charges, failed payments and dunning', () => {
  const sandbox = useSandbox();
  let database: Database;
  let stripe: Stripe;
  let monthly: Stripe.Price;
  let weekly: Stripe.Price;

  beforeAll(async () => {
    ({ database, stripe } = sandbox);
    const price = await productWithPrices(stripe, { id: 'prod_member', name: '会員プラン' });
    monthly = await price(1100, 'month');
    weekly = await price(330, 'week');
  });

  const clockedCustomer = (start: number, card?: string | null) =>
    sandbox.clockedCustomer(start, card);

  /** A clocked customer subscribed to `price`, with those parameters. */
  const subscribedCustomer = (
    start: number,
    card: string | null,
    params: Omit<Stripe.SubscriptionCreateParams, 'customer' | 'items'> = {},
    price: Stripe.Price = monthly,
  ) => sandbox.subscribedCustomer(start, card, { items: [{ price: price.id }], ...params });

  /**
   * A clocked customer subscribed on a good card (its first invoice paid), whose card then
   * starts failing (4000 0000 0000 0341 made its default): its renewals fail.
   */
  const failingLater = async (
    start: number,
    params: Omit<Stripe.SubscriptionCreateParams, 'customer' | 'items'> = {},
    price: Stripe.Price = monthly,
  ) => {
    const made = await subscribedCustomer(start, '4242424242424242', params, price);
    await switchToFailingCard(stripe, made.customer.id);
    return made;
  };

  /** The error a monthly subscription made with error_if_incomplete is refused with. */
  const refusedSubscription = (customerId: string) =>
    stripe.subscriptions
      .create({
        customer: customerId,
        items: [{ price: monthly.id }],
        payment_behavior: 'error_if_incomplete',
      })
      .catch((caught: unknown) => caught);

  /** A working card that belongs to no customer yet. */
  const looseCard = () =>
    stripe.paymentMethods.create({
      type: 'card',
      card: { number: '4242424242424242', exp_month: 12, exp_year: 2035, cvc: '123' },
    });

  const advance = (clock: Stripe.TestHelpers.TestClock, frozen_time: number) =>
    stripe.testHelpers.testClocks.advance(clock.id, { frozen_time });

  /** The customer's subscription and invoice events, oldest first. */
  const eventsOf = (customerId: string) => sandbox.customerEvents(customerId);

  const typesOf = (events: Stripe.Event[]) => events.map((event) => event.type);

  const periodEnd = (subscription: Stripe.Subscription) =>
    subscription.items.data[0]?.current_period_end ?? 0;

  const latestInvoice = async (subscriptionId: string) => {
    const subscription = await stripe.subscriptions.retrieve(subscriptionId);
    return stripe.invoices.retrieve(subscription.latest_invoice as string);
  };

  /**
   * The invoice is still open after its `count`th attempt failed, with the next retry at
   * `next`, and the customer's last event is that failure, made at `at`. Answers the events.
   */
  async function expectFailedAttempt(
    customerId: string,
    invoiceId: string,
    attempt: { count: number; at: number; next: number },
  ): Promise<Stripe.Event[]> {
    expect(await stripe.invoices.retrieve(invoiceId)).toMatchObject({
      status: 'open',
      attempt_count: attempt.count,
      next_payment_attempt: attempt.next,
    });
    const events = await eventsOf(customerId);
    expect(events.at(-1)).toMatchObject({
      type: 'invoice.payment_failed',
      created: attempt.at,
      data: { object: { id: invoiceId, attempt_count: attempt.count } },
    });
    return events;
  }

  const paidEvents = [
    'invoice.created',
    'invoice.finalized',
    'invoice.paid',
    'invoice.payment_succeeded',
  ];
  const failedEvents = ['invoice.created', 'invoice.finalized', 'invoice.payment_failed'];

  it('charges the first invoice, then fails the renewal on 4000…0341: past_due', async () => {
    const start = utc(2027, 4, 1);
    const end = utc(2027, 5, 1);
    const { clock, customer, created } = await failingLater(start);
    expect(created.status).toBe('active');
    expect(await stripe.invoices.retrieve(created.latest_invoice as string)).toMatchObject({
      status: 'paid',
      attempted: true,
      attempt_count: 1,
      amount_paid: 1100,
    });

    await advance(clock, end);
    const pastDue = await stripe.subscriptions.retrieve(created.id);
    expect(pastDue.status).toBe('past_due');
    expect(pastDue.latest_invoice).not.toBe(created.latest_invoice);
    const renewal = await stripe.invoices.retrieve(pastDue.latest_invoice as string);
    expect(renewal).toMatchObject({
      status: 'open',
      billing_reason: 'subscription_cycle',
      attempted: true,
      attempt_count: 1,
      next_payment_attempt: end + 3 * DAY,
      last_finalization_error: null,
      amount_due: 1100,
      amount_paid: 0,
      amount_remaining: 1100,
      status_transitions: { finalized_at: end, paid_at: null },
    });
    const open = await stripe.invoices.list({ customer: customer.id, status: 'open' });
    expect(open.data.map((invoice) => invoice.id)).toEqual([renewal.id]);

    const events = await eventsOf(customer.id);
    expect(typesOf(events)).toEqual([
      'customer.subscription.created',
      ...paidEvents,
      'customer.subscription.updated',
      ...failedEvents,
      'customer.subscription.updated',
    ]);
    const failed = events.at(-2) as Stripe.InvoicePaymentFailedEvent;
    expect(failed).toMatchObject({
      created: end,
      data: { object: { id: renewal.id, status: 'open', attempt_count: 1 } },
    });
    expect(events.at(-1)).toMatchObject({
      created: end,
      data: { object: { status: 'past_due' }, previous_attributes: { status: 'active' } },
    });
  });

  it('retries on day 3; a new default card and invoices.pay make it active again', async () => {
    const start = utc(2027, 4, 1);
    const end = utc(2027, 5, 1);
    const { clock, customer, created } = await failingLater(start);
    await advance(clock, end + 3 * DAY - 1);
    expect((await latestInvoice(created.id)).attempt_count).toBe(1);

    await advance(clock, end + 4 * DAY);
    const retried = await latestInvoice(created.id);
    const afterRetry = await expectFailedAttempt(customer.id, retried.id, {
      count: 2,
      at: end + 3 * DAY,
      next: end + 5 * DAY,
    });

    // The customer puts in a card that works, and the open invoice is paid at once.
    await attachCard(stripe, customer.id);
    const paid = await stripe.invoices.pay(retried.id);
    expect(paid).toMatchObject({
      id: retried.id,
      status: 'paid',
      amount_paid: 1100,
      amount_remaining: 0,
      attempt_count: 3,
      next_payment_attempt: null,
      status_transitions: { paid_at: end + 4 * DAY },
    });
    const active = await stripe.subscriptions.retrieve(created.id);
    expect(active.status).toBe('active');
    const events = await eventsOf(customer.id);
    expect(typesOf(events.slice(afterRetry.length))).toEqual([
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    expect(events.at(-1)?.data.previous_attributes).toEqual({ status: 'past_due' });

    // No retry is left on the paid invoice; the next renewal is charged to the new card.
    await advance(clock, utc(2027, 6, 2));
    const later = await eventsOf(customer.id);
    expect(typesOf(later.slice(events.length))).toEqual([
      'customer.subscription.updated',
      ...paidEvents,
    ]);
    expect((await stripe.subscriptions.retrieve(created.id)).status).toBe('active');
  });

  it('after the retries on days 3, 5 and 7 fail, cancels and marks the invoice uncollectible', async () => {
    // Weekly: the last retry falls on the next period's end, and comes first.
    const start = utc(2027, 4, 5);
    const end = start + 7 * DAY;
    const { clock, customer, created } = await failingLater(start, {}, weekly);
    await advance(clock, start + 30 * DAY);

    const canceled = await stripe.subscriptions.retrieve(created.id);
    expect(canceled).toMatchObject({
      status: 'canceled',
      canceled_at: end + 7 * DAY,
      ended_at: end + 7 * DAY,
      cancellation_details: { reason: 'payment_failed' },
    });
    const invoice = await stripe.invoices.retrieve(canceled.latest_invoice as string);
    expect(invoice).toMatchObject({
      status: 'uncollectible',
      attempt_count: 4,
      next_payment_attempt: null,
      auto_advance: false,
      status_transitions: { finalized_at: end, marked_uncollectible_at: end + 7 * DAY },
    });
    // Two invoices only: the paid first one and the uncollectible renewal.
    const invoices = await stripe.invoices.list({ subscription: created.id });
    expect(invoices.data.map((item) => item.status)).toEqual(['uncollectible', 'paid']);

    const events = await eventsOf(customer.id);
    const dunning = events.slice(1 + paidEvents.length);
    expect(dunning.map((event) => [event.type, event.created])).toEqual([
      ['customer.subscription.updated', end],
      ['invoice.created', end],
      ['invoice.finalized', end],
      ['invoice.payment_failed', end],
      ['customer.subscription.updated', end],
      ['invoice.payment_failed', end + 3 * DAY],
      ['invoice.payment_failed', end + 5 * DAY],
      ['invoice.payment_failed', end + 7 * DAY],
      ['customer.subscription.deleted', end + 7 * DAY],
      ['invoice.marked_uncollectible', end + 7 * DAY],
    ]);
    expect(
      dunning
        .filter(
          (event): event is Stripe.InvoicePaymentFailedEvent =>
            event.type === 'invoice.payment_failed',
        )
        .map((event) => event.data.object.next_payment_attempt),
    ).toEqual([end + 3 * DAY, end + 5 * DAY, end + 7 * DAY, null]);

    // An uncollectible invoice can still be paid (as on Stripe); the subscription stays ended.
    await attachCard(stripe, customer.id);
    expect(await stripe.invoices.pay(invoice.id)).toMatchObject({ status: 'paid' });
    expect((await stripe.subscriptions.retrieve(created.id)).status).toBe('canceled');
  });

  it('stops retrying the open invoice of a subscription canceled while past_due', async () => {
    const start = utc(2027, 4, 1);
    const end = utc(2027, 5, 1);
    const { clock, customer, created } = await failingLater(start);
    await advance(clock, end + DAY);
    await stripe.subscriptions.cancel(created.id);
    const open = await latestInvoice(created.id);
    expect(open).toMatchObject({ status: 'open', next_payment_attempt: null, attempt_count: 1 });
    const before = (await eventsOf(customer.id)).length;
    await advance(clock, end + 10 * DAY);
    expect(await eventsOf(customer.id)).toHaveLength(before);
  });

  it('without a card: incomplete, then incomplete_expired with its invoice void after 23 h', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer, created } = await subscribedCustomer(start, null);
    expect(created.status).toBe('incomplete');
    const invoice = await stripe.invoices.retrieve(created.latest_invoice as string);
    expect(invoice).toMatchObject({
      status: 'open',
      billing_reason: 'subscription_create',
      attempted: true,
      attempt_count: 1,
      // The first invoice is not retried: it is paid or expires with its subscription.
      next_payment_attempt: null,
      last_finalization_error: null,
    });
    expect(typesOf(await eventsOf(customer.id))).toEqual([
      'customer.subscription.created',
      ...failedEvents,
    ]);
    expect((await eventsOf(customer.id))[0]?.data.object).toMatchObject({ status: 'incomplete' });
    // Listed among the live ones by default, as on Stripe.
    const listed = await stripe.subscriptions.list({ customer: customer.id });
    expect(listed.data.map((subscription) => subscription.id)).toEqual([created.id]);

    await advance(clock, start + 23 * HOUR - 1);
    expect((await stripe.subscriptions.retrieve(created.id)).status).toBe('incomplete');
    await advance(clock, start + 23 * HOUR);
    expect(await stripe.subscriptions.retrieve(created.id)).toMatchObject({
      status: 'incomplete_expired',
      ended_at: start + 23 * HOUR,
    });
    expect(await stripe.invoices.retrieve(invoice.id)).toMatchObject({
      status: 'void',
      status_transitions: { voided_at: start + 23 * HOUR },
    });
    const events = await eventsOf(customer.id);
    expect(events.slice(-2).map((event) => [event.type, event.created])).toEqual([
      ['customer.subscription.updated', start + 23 * HOUR],
      ['invoice.voided', start + 23 * HOUR],
    ]);
    expect(events.at(-2)?.data.previous_attributes).toMatchObject({ status: 'incomplete' });
    const ended = await stripe.subscriptions.list({ customer: customer.id, status: 'ended' });
    expect(ended.data.map((subscription) => subscription.id)).toEqual([created.id]);
    await expect(
      stripe.subscriptions.update(created.id, { cancel_at_period_end: true }),
    ).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    // Nothing more happens to it.
    await advance(clock, utc(2027, 6, 2));
    expect(await eventsOf(customer.id)).toHaveLength(events.length);
  });

  it('pays an incomplete subscription with invoices.pay once a card is attached', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer, created } = await subscribedCustomer(start, null);
    await advance(clock, start + HOUR);
    await attachCard(stripe, customer.id);
    const paid = await stripe.invoices.pay(created.latest_invoice as string);
    expect(paid).toMatchObject({ status: 'paid', attempt_count: 2 });
    const active = await stripe.subscriptions.retrieve(created.id);
    expect(active.status).toBe('active');
    expect(active.items.data[0]?.current_period_end).toBe(utc(2027, 5, 1));
    const events = await eventsOf(customer.id);
    expect(typesOf(events).slice(-3)).toEqual([
      'invoice.paid',
      'invoice.payment_succeeded',
      'customer.subscription.updated',
    ]);
    expect(events.at(-1)?.data.previous_attributes).toEqual({ status: 'incomplete' });
    // Past the 23 hours it stays active, and renews on the card.
    await advance(clock, utc(2027, 5, 2));
    expect((await latestInvoice(created.id)).status).toBe('paid');
  });

  it('payment_behavior: error_if_incomplete refuses and leaves nothing; default_incomplete waits', async () => {
    const start = utc(2027, 4, 1);
    const { customer } = await clockedCustomer(start, FAILING_CARD);
    // Every charge on 0341 is declined: the first subscription is left incomplete.
    const first = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
    });
    expect(first.status).toBe('incomplete');
    const eventsBefore = (await eventsOf(customer.id)).length;

    expectCardDeclined(await refusedSubscription(customer.id));
    const all = await stripe.subscriptions.list({ customer: customer.id, status: 'all' });
    expect(all.data).toHaveLength(1);
    expect((await stripe.invoices.list({ customer: customer.id })).data).toHaveLength(1);
    expect(await eventsOf(customer.id)).toHaveLength(eventsBefore);

    const { customer: cardless } = await clockedCustomer(start, null);
    const noCard = await refusedSubscription(cardless.id);
    expect(noCard).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect((noCard as Error).message).toContain('no attached payment source');
    expect(
      (await stripe.subscriptions.list({ customer: cardless.id, status: 'all' })).data,
    ).toEqual([]);

    const { customer: waiting } = await clockedCustomer(start);
    const pending = await stripe.subscriptions.create({
      customer: waiting.id,
      items: [{ price: monthly.id }],
      payment_behavior: 'default_incomplete',
    });
    expect(pending.status).toBe('incomplete');
    expect(await stripe.invoices.retrieve(pending.latest_invoice as string)).toMatchObject({
      status: 'open',
      attempted: false,
      attempt_count: 0,
    });
    expect(typesOf(await eventsOf(waiting.id))).toEqual([
      'customer.subscription.created',
      'invoice.created',
      'invoice.finalized',
    ]);
    await stripe.invoices.pay(pending.latest_invoice as string);
    expect((await stripe.subscriptions.retrieve(pending.id)).status).toBe('active');

    await expect(
      stripe.subscriptions.create({
        customer: waiting.id,
        items: [{ price: monthly.id }],
        payment_behavior: 'pending_if_incomplete',
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'payment_behavior' });
  });

  it('charges the subscription’s default_payment_method before the customer’s', async () => {
    const start = utc(2027, 4, 1);
    const { clock, customer } = await clockedCustomer(start, FAILING_CARD);
    const own = await looseCard();
    await stripe.paymentMethods.attach(own.id, { customer: customer.id });
    const created = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
      default_payment_method: own.id,
    });
    expect(created.default_payment_method).toBe(own.id);
    // The customer's default card (0341) would be declined: the subscription's own is charged.
    await advance(clock, utc(2027, 5, 2));
    expect((await stripe.subscriptions.retrieve(created.id)).status).toBe('active');
    const renewal = await latestInvoice(created.id);
    expect(renewal).toMatchObject({ status: 'paid', default_payment_method: own.id });

    const stranger = await looseCard();
    await expect(
      stripe.subscriptions.create({
        customer: customer.id,
        items: [{ price: monthly.id }],
        default_payment_method: stranger.id,
      }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'default_payment_method' });
  });

  it('sends trial_will_end three days before the trial ends, then fails a cardless trial end', async () => {
    const start = utc(2027, 4, 1);
    const trialEnd = start + 14 * DAY;
    const { clock, customer, created } = await subscribedCustomer(start, null, {
      trial_period_days: 14,
    });
    // The ¥0 trial invoice needs no card.
    expect(created.status).toBe('trialing');
    expect(await stripe.invoices.retrieve(created.latest_invoice as string)).toMatchObject({
      status: 'paid',
      amount_due: 0,
      attempt_count: 0,
    });

    await advance(clock, trialEnd - 3 * DAY - 1);
    expect(typesOf(await eventsOf(customer.id))).not.toContain(
      'customer.subscription.trial_will_end',
    );
    await advance(clock, trialEnd - 3 * DAY);
    const notice = (await eventsOf(customer.id)).at(-1);
    expect(notice).toMatchObject({
      type: 'customer.subscription.trial_will_end',
      created: trialEnd - 3 * DAY,
      data: { object: { id: created.id, status: 'trialing', trial_end: trialEnd } },
    });

    await advance(clock, trialEnd + DAY);
    expect((await stripe.subscriptions.retrieve(created.id)).status).toBe('past_due');
    const events = await eventsOf(customer.id);
    expect(typesOf(events).filter((type) => type.endsWith('trial_will_end'))).toHaveLength(1);
    expect(typesOf(events).slice(-5)).toEqual([
      'customer.subscription.updated',
      ...failedEvents,
      'customer.subscription.updated',
    ]);
    expect(await latestInvoice(created.id)).toMatchObject({
      status: 'open',
      next_payment_attempt: trialEnd + 3 * DAY,
    });

    // A trial of three days or less gets its notice at once.
    const { customer: short } = await clockedCustomer(start);
    await stripe.subscriptions.create({
      customer: short.id,
      items: [{ price: monthly.id }],
      trial_period_days: 2,
    });
    expect((await eventsOf(short.id)).at(-1)).toMatchObject({
      type: 'customer.subscription.trial_will_end',
      created: start,
    });
  });

  it('answers invoices.pay with Stripe’s errors', async () => {
    const start = utc(2027, 4, 1);
    const end = utc(2027, 5, 1);
    const { clock, customer, created } = await failingLater(start);

    const alreadyPaid = await stripe.invoices
      .pay(created.latest_invoice as string)
      .catch((caught: unknown) => caught);
    expect(alreadyPaid).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(alreadyPaid).toMatchObject({
      statusCode: 400,
      code: 'invoice_already_paid',
      message: 'Invoice is already paid',
    });
    await expect(stripe.invoices.pay('in_missing')).rejects.toMatchObject({
      statusCode: 404,
      code: 'resource_missing',
    });

    await advance(clock, end + HOUR);
    const open = await latestInvoice(created.id);
    const declined = await stripe.invoices.pay(open.id).catch((caught: unknown) => caught);
    expectCardDeclined(declined);
    // The failed attempt counts, without moving the retry schedule.
    await expectFailedAttempt(customer.id, open.id, {
      count: 2,
      at: end + HOUR,
      next: end + 3 * DAY,
    });
    expect((await stripe.subscriptions.retrieve(created.id)).status).toBe('past_due');

    const stranger = await looseCard();
    await expect(
      stripe.invoices.pay(open.id, { payment_method: stranger.id }),
    ).rejects.toMatchObject({ statusCode: 400, param: 'payment_method' });
    await expect(stripe.invoices.pay(open.id, { forgive: true })).rejects.toMatchObject({
      statusCode: 400,
      code: 'parameter_unknown',
    });

    // A card given to this payment only (attached, not made the default) pays it.
    await stripe.paymentMethods.attach(stranger.id, { customer: customer.id });
    const paid = await stripe.invoices.pay(open.id, { payment_method: stranger.id });
    expect(paid).toMatchObject({ status: 'paid', attempt_count: 3 });
    expect((await stripe.subscriptions.retrieve(created.id)).status).toBe('active');

    // No card at all: Stripe's invalid request, and no attempt is counted.
    const {
      clock: otherClock,
      customer: cardless,
      created: incomplete,
    } = await subscribedCustomer(start, null);
    await expect(stripe.invoices.pay(incomplete.latest_invoice as string)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
    });
    expect(await latestInvoice(incomplete.id)).toMatchObject({ attempt_count: 1 });

    // A voided invoice (its subscription expired) cannot be paid.
    await advance(otherClock, start + DAY);
    await attachCard(stripe, cardless.id);
    await expect(stripe.invoices.pay(incomplete.latest_invoice as string)).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
      message: 'Voided invoices cannot be paid.',
    });
  });

  it('moves subscriptions without a clock on in real time, once, whoever runs it', async () => {
    const customer = await customerWithCard(stripe, { email: 'clockless@example.jp' });
    const created = await stripe.subscriptions.create({
      customer: customer.id,
      items: [{ price: monthly.id }],
    });
    await switchToFailingCard(stripe, customer.id);
    const trial = await stripe.subscriptions.create({
      customer: (await customerWithCard(stripe, { email: 'trial@example.jp' })).id,
      items: [{ price: monthly.id }],
      trial_period_days: 7,
    });
    // A subscription on a clock is the clock's business, whatever the real time.
    const { customer: clocked } = await clockedCustomer(utc(2027, 4, 1));
    const onClock = await stripe.subscriptions.create({
      customer: clocked.id,
      items: [{ price: monthly.id }],
    });
    const end = periodEnd(created);
    const trialEnd = trial.trial_end ?? 0;

    expect(await advanceClocklessSubscriptions(database.db, trialEnd - 3 * DAY - 1)).toBe(0);
    // Three days before the trial's end: its notice.
    expect(await advanceClocklessSubscriptions(database.db, trialEnd - 3 * DAY)).toBe(1);
    expect(await advanceClocklessSubscriptions(database.db, trialEnd - 3 * DAY)).toBe(0);

    expect(await advanceClocklessSubscriptions(database.db, end)).toBe(2);
    const pastDue = await stripe.subscriptions.retrieve(created.id);
    expect(pastDue.status).toBe('past_due');
    expect((await stripe.subscriptions.retrieve(trial.id)).status).toBe('active');
    const renewal = await stripe.invoices.retrieve(pastDue.latest_invoice as string);
    expect(renewal).toMatchObject({
      status: 'open',
      created: end,
      next_payment_attempt: end + 3 * DAY,
      test_clock: null,
    });
    expect(await advanceClocklessSubscriptions(database.db, end)).toBe(0);

    // Two runs at once (two processes, say) make the retry once.
    const runs = await Promise.all([
      advanceClocklessSubscriptions(database.db, end + 3 * DAY),
      advanceClocklessSubscriptions(database.db, end + 3 * DAY),
    ]);
    expect(runs[0] + runs[1]).toBe(1);
    expect(await stripe.invoices.retrieve(renewal.id)).toMatchObject({
      attempt_count: 2,
      next_payment_attempt: end + 5 * DAY,
    });
    const failures = (await eventsOf(customer.id)).filter(
      (event) => event.type === 'invoice.payment_failed',
    );
    expect(failures.map((event) => event.created)).toEqual([end, end + 3 * DAY]);

    // Far ahead: the last retry fails on day 7 and the subscription ends there.
    await advanceClocklessSubscriptions(database.db, end + 20 * DAY);
    expect(await stripe.subscriptions.retrieve(created.id)).toMatchObject({
      status: 'canceled',
      ended_at: end + 7 * DAY,
      cancellation_details: { reason: 'payment_failed' },
    });
    expect((await stripe.subscriptions.retrieve(onClock.id)).latest_invoice).toBe(
      onClock.latest_invoice,
    );
  });
});
