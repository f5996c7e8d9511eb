import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { invalidRequest, resourceMissing } from '../errors';
import { previousAttributes, recordEvent } from '../events';
import {
  findAllObjects,
  findObject,
  findObjectForUpdate,
  insertObject,
  newObjectId,
  type SandboxObject,
  saveObject,
} from '../object-store';
import { cardDeclined, requireAttachedPaymentMethod } from '../resources/payment-methods';
import {
  afterIntervals,
  CUSTOMER_TYPE,
  customerNow,
  DAY,
  INVOICE_TYPE,
  itemOf,
  num,
  priceOf,
  recurringOf,
  SUBSCRIPTION_TYPE,
  subscriptionIdOf,
} from './calendar';
import { type Redemption, redeem } from './discounts';
import { attemptPayment, defaultPaymentMethod, failed, type PaymentOutcome } from './payments';
import {
  createProrationItem,
  formatDate,
  issueInvoice,
  pendingItemLines,
  planOf,
  priceDescription,
  priceLine,
  productName,
} from './invoices';

/**
 * Subscriptions: starting, changing and canceling one, and paying its open invoice, with the
 * events Stripe sends. Callers run these inside one database transaction, except
 * payOpenInvoice, which opens its own.
 */

export function withItem(
  subscription: SandboxObject,
  changes: { price?: SandboxObject; start?: number; end?: number; quantity?: number },
): SandboxObject {
  const item = itemOf(subscription);
  const price = changes.price ?? (item.price as SandboxObject);
  const nextItem: SandboxObject = {
    ...item,
    current_period_start: changes.start ?? item.current_period_start,
    current_period_end: changes.end ?? item.current_period_end,
    plan: planOf(price),
    price,
    quantity: changes.quantity ?? item.quantity,
  };
  const items = subscription.items as Record<string, unknown>;
  return { ...subscription, items: { ...items, data: [nextItem] } };
}

/** Stripe's `payment_behavior` on create (`pending_if_incomplete` is for updates only). */
export type PaymentBehavior = 'allow_incomplete' | 'default_incomplete' | 'error_if_incomplete';

export type NewSubscription = {
  customer: SandboxObject;
  price: SandboxObject;
  trialDays: number | undefined;
  metadata: Record<string, string>;
  cancelAtPeriodEnd: boolean;
  /** The subscription's own card, charged before the customer's default (checked by the caller). */
  defaultPaymentMethod?: string | null;
  /** `allow_incomplete` (Stripe's default) when left out. */
  paymentBehavior?: PaymentBehavior;
  /** A coupon or promotion code checked (and its rows locked) by checkRedemption. */
  redemption?: Redemption;
  /** The item's quantity (seats), 1 when left out. */
  quantity?: number;
  /** `collection_method: send_invoice`: invoices sent, due this many days after they are made. */
  sendInvoice?: { daysUntilDue: number; paymentSettings: Record<string, unknown> };
};

/** Stripe's answer when there is no card to charge at all. */
export function noPaymentMethodError() {
  return invalidRequest(
    'This customer has no attached payment source or default payment method. Please consider adding a default payment method. For more information, visit https://stripe.com/docs/billing/subscriptions/payment-methods-setting#payment-method-priority.',
  );
}

/**
 * Creates a subscription and its first invoice, charged at once. A trial bills ¥0 (paid, no
 * charge). Without a trial the subscription is `active` if the charge succeeds, else
 * `incomplete` with its invoice open until paid (`invoices.pay`) or expired after 23 hours;
 * `default_incomplete` does not try the charge; `error_if_incomplete` refuses with Stripe's
 * error and leaves nothing behind (the caller's transaction rolls back).
 */
export async function startSubscription(db: Db, input: NewSubscription): Promise<SandboxObject> {
  const { customer, price } = input;
  const quantity = input.quantity ?? 1;
  const behavior = input.paymentBehavior ?? 'allow_incomplete';
  const at = await customerNow(db, customer, true);
  const recurring = recurringOf(price);
  const id = newObjectId('sub');
  const invoiceId = newObjectId('in');
  const trialEnd = input.trialDays ? at + input.trialDays * DAY : null;
  const periodEnd = trialEnd ?? afterIntervals(at, recurring, 1);
  const item: SandboxObject = {
    id: newObjectId('si'),
    object: 'subscription_item',
    billing_thresholds: null,
    created: at,
    current_period_end: periodEnd,
    current_period_start: at,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(price),
    price,
    quantity: input.quantity ?? 1,
    subscription: id,
    tax_rates: [],
  };
  const subscription: SandboxObject = {
    id,
    object: 'subscription',
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: trialEnd ?? at,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_thresholds: null,
    cancel_at: input.cancelAtPeriodEnd ? periodEnd : null,
    cancel_at_period_end: input.cancelAtPeriodEnd,
    canceled_at: input.cancelAtPeriodEnd ? at : null,
    cancellation_details: {
      comment: null,
      feedback: null,
      reason: input.cancelAtPeriodEnd ? 'cancellation_requested' : null,
    },
    collection_method: input.sendInvoice ? 'send_invoice' : 'charge_automatically',
    created: at,
    currency: price.currency,
    customer: customer.id,
    customer_account: null,
    days_until_due: input.sendInvoice?.daysUntilDue ?? null,
    default_payment_method: input.defaultPaymentMethod ?? null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: { account_tax_ids: null, issuer: { type: 'self' } },
    items: {
      object: 'list',
      data: [item],
      has_more: false,
      total_count: 1,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: invoiceId,
    livemode: false,
    metadata: input.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
      ...input.sendInvoice?.paymentSettings,
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: at,
    // Known once the first invoice's payment is (below), before any event is recorded.
    status: trialEnd ? 'trialing' : 'incomplete',
    test_clock: customer.test_clock,
    transfer_data: null,
    trial_end: trialEnd,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: trialEnd ? at : null,
  };
  if (input.redemption) {
    const discount = await redeem(db, input.redemption, {
      customer: customer.id,
      subscription: id,
      at,
    });
    subscription.discounts = [discount.id];
  }
  const name = await productName(db, price);
  await issueInvoice(db, {
    id: invoiceId,
    subscription,
    customer,
    billingReason: 'subscription_create',
    at,
    periodStart: at,
    periodEnd: at,
    collect: behavior !== 'default_incomplete',
    beforeEvents: async (outcome) => {
      if (behavior === 'error_if_incomplete' && outcome === 'no_payment_method') {
        throw noPaymentMethodError();
      }
      if (behavior === 'error_if_incomplete' && outcome === 'declined') throw cardDeclined();
      // A sent invoice is paid later: its subscription is active at once, as on Stripe.
      const live = outcome === 'paid' || input.sendInvoice !== undefined;
      if (!trialEnd) subscription.status = live ? 'active' : 'incomplete';
      await insertObject(db, SUBSCRIPTION_TYPE, subscription);
      await recordEvent(db, 'customer.subscription.created', subscription, at);
    },
    lines: [
      {
        amount: trialEnd ? 0 : num(price, 'unit_amount') * quantity,
        description: trialEnd
          ? `Trial period for ${name}`
          : await priceDescription(db, price, quantity),
        period: { start: at, end: periodEnd },
        price,
        proration: false,
        invoiceItem: null,
        quantity,
      },
    ],
  });
  if (trialEnd) await scheduleTrialNotice(db, subscription, at);
  return subscription;
}

/**
 * Stripe sends `customer.subscription.trial_will_end` three days before a trial ends (at
 * once for a shorter trial). The pending notice is kept beside the subscription, never
 * answered, so that whichever moves time on (a clock, the timer) sends it exactly once.
 */
export const TRIAL_NOTICE_TYPE = 'sandbox.trial_notice';
const TRIAL_NOTICE_LEAD_SECONDS = 3 * DAY;

export const trialNoticeId = (subscriptionId: string) => `trialnotice_${subscriptionId}`;

async function scheduleTrialNotice(db: Db, subscription: SandboxObject, at: number): Promise<void> {
  const due = num(subscription, 'trial_end') - TRIAL_NOTICE_LEAD_SECONDS;
  if (due <= at) {
    await recordEvent(db, 'customer.subscription.trial_will_end', subscription, at);
    return;
  }
  await insertObject(db, TRIAL_NOTICE_TYPE, {
    id: trialNoticeId(subscription.id),
    object: TRIAL_NOTICE_TYPE,
    created: at,
    subscription: subscription.id,
    test_clock: subscription.test_clock,
    due_at: due,
    sent_at: null,
  });
}

export async function saveWithEvent(
  db: Db,
  before: SandboxObject,
  after: SandboxObject,
  at: number,
): Promise<SandboxObject> {
  const previous = previousAttributes(before, after);
  if (Object.keys(previous).length === 0) return before;
  await saveObject(db, after);
  await recordEvent(db, 'customer.subscription.updated', after, at, previous);
  return after;
}

export type SubscriptionChange = {
  cancelAtPeriodEnd?: boolean;
  price?: SandboxObject;
  /** A new quantity (seats) of the item. */
  quantity?: number;
  /** `always_invoice` invoices the prorations at once instead of with the next renewal. */
  prorationBehavior: 'create_prorations' | 'none' | 'always_invoice';
  metadata?: Record<string, string>;
  /** A card of the customer's (checked by the caller), or null to fall back on its default. */
  defaultPaymentMethod?: string | null;
  /** A new trial end (a future time, checked by the caller, or `now`): see moveTrialEnd. */
  trialEnd?: number | 'now';
};

/**
 * `trial_end` set on a live subscription, as Stripe does it (proration_behavior `none`): the
 * subscription is `trialing` from now until then, its current period runs from now to then, and
 * the next charge (the billing cycle's anchor) moves there; nothing is billed now. `now` ends the
 * trial at once: the period ends now, and the next round of its clock or timer bills it.
 */
async function moveTrialEnd(
  db: Db,
  next: SandboxObject,
  at: number,
  trialEnd: number | 'now',
): Promise<SandboxObject> {
  const end = trialEnd === 'now' ? at : trialEnd;
  const moved: SandboxObject = {
    ...withItem(next, { start: at, end }),
    status: 'trialing',
    trial_start: at,
    trial_end: end,
    billing_cycle_anchor: end,
  };
  if (moved.cancel_at_period_end) moved.cancel_at = end;
  const notice = await findObject(db, TRIAL_NOTICE_TYPE, trialNoticeId(next.id));
  if (notice)
    await saveObject(db, { ...notice, due_at: end - TRIAL_NOTICE_LEAD_SECONDS, sent_at: null });
  else if (end > at) await scheduleTrialNotice(db, moved, at);
  return moved;
}

/**
 * Changes a live subscription. A new price of the same interval keeps the period; with
 * `create_prorations` the unused time of the old price is credited and the rest of the
 * period on the new one charged, as pending invoice items billed with the next invoice. A new
 * interval (monthly ↔ yearly) restarts the billing cycle now and invoices at once, crediting
 * the unused time when prorating; if that charge fails the subscription goes `past_due`
 * (Stripe's `allow_incomplete` for updates). During a trial the price changes and nothing is
 * billed.
 */
export async function changeSubscription(
  db: Db,
  current: SandboxObject,
  customer: SandboxObject,
  at: number,
  change: SubscriptionChange,
): Promise<SandboxObject> {
  let next: SandboxObject = { ...current };
  if (change.metadata) next.metadata = change.metadata;
  if (change.defaultPaymentMethod !== undefined) {
    next.default_payment_method = change.defaultPaymentMethod;
  }
  if (
    change.cancelAtPeriodEnd !== undefined &&
    change.cancelAtPeriodEnd !== current.cancel_at_period_end
  ) {
    const cancel = change.cancelAtPeriodEnd;
    next.cancel_at_period_end = cancel;
    next.cancel_at = cancel ? itemOf(current).current_period_end : null;
    next.canceled_at = cancel ? at : null;
    next.cancellation_details = {
      comment: null,
      feedback: null,
      reason: cancel ? 'cancellation_requested' : null,
    };
  }
  if (change.trialEnd !== undefined) next = await moveTrialEnd(db, next, at, change.trialEnd);
  const oldPrice = priceOf(current);
  const newPrice = change.price ?? oldPrice;
  const oldQuantity = num(itemOf(current), 'quantity');
  const quantity = change.quantity ?? oldQuantity;
  if (newPrice.id === oldPrice.id && quantity === oldQuantity) {
    return saveWithEvent(db, current, next, at);
  }

  const item = itemOf(current);
  const start = num(item, 'current_period_start');
  const end = num(item, 'current_period_end');
  const oldRecurring = recurringOf(oldPrice);
  const newRecurring = recurringOf(newPrice);
  const sameCycle =
    oldRecurring.interval === newRecurring.interval &&
    oldRecurring.interval_count === newRecurring.interval_count;
  const prorate = change.prorationBehavior !== 'none' && current.status !== 'trialing';
  const fraction = (end - at) / (end - start);
  const credit = -Math.round(num(oldPrice, 'unit_amount') * oldQuantity * fraction);
  const creditText = `Unused time on ${await seatsText(db, oldPrice, oldQuantity)} after ${formatDate(at)}`;

  if (sameCycle || current.status === 'trialing') {
    // In a trial the anchor is the trial's end, where the first period of the new price starts.
    const invoiceNow = prorate && change.prorationBehavior === 'always_invoice';
    const invoiceId = newObjectId('in');
    next = withItem(next, { price: newPrice, quantity });
    if (invoiceNow) next.latest_invoice = invoiceId;
    next = await saveWithEvent(db, current, next, at);
    if (!prorate) return next;
    const period = { start: at, end };
    await createProrationItem(
      db,
      next,
      customer,
      oldPrice,
      credit,
      creditText,
      period,
      oldQuantity,
    );
    const charge = Math.round(num(newPrice, 'unit_amount') * quantity * fraction);
    const chargeText = `Remaining time on ${await seatsText(db, newPrice, quantity)} after ${formatDate(at)}`;
    await createProrationItem(db, next, customer, newPrice, charge, chargeText, period, quantity);
    if (!invoiceNow) return next;
    // always_invoice: the prorations are invoiced now (sent, for a send_invoice subscription).
    const { invoice, outcome } = await issueInvoice(db, {
      id: invoiceId,
      subscription: next,
      customer,
      billingReason: 'subscription_update',
      at,
      periodStart: at,
      periodEnd: at,
      lines: await pendingItemLines(db, next),
    });
    return settleAfterPayment(db, next, invoice, outcome, at);
  }

  // A new cycle: the anchor moves to now and the new price is invoiced at once.
  const newEnd = afterIntervals(at, newRecurring, 1);
  const invoiceId = newObjectId('in');
  next = withItem(next, { price: newPrice, start: at, end: newEnd, quantity });
  next.billing_cycle_anchor = at;
  next.latest_invoice = invoiceId;
  if (next.cancel_at_period_end) next.cancel_at = newEnd;
  next = await saveWithEvent(db, current, next, at);
  if (prorate) {
    const period = { start: at, end };
    await createProrationItem(
      db,
      next,
      customer,
      oldPrice,
      credit,
      creditText,
      period,
      oldQuantity,
    );
  }
  const lines = await pendingItemLines(db, next);
  lines.push(await priceLine(db, newPrice, { start: at, end: newEnd }, quantity));
  const { invoice, outcome } = await issueInvoice(db, {
    id: invoiceId,
    subscription: next,
    customer,
    billingReason: 'subscription_update',
    at,
    periodStart: at,
    periodEnd: at,
    lines,
  });
  return settleAfterPayment(db, next, invoice, outcome, at);
}

/** What a proration line names: the product, with its seats when more than one. */
async function seatsText(db: Db, price: SandboxObject, quantity: number): Promise<string> {
  const name = await productName(db, price);
  return quantity === 1 ? name : `${String(quantity)} × ${name}`;
}

/** Cancels at once: DELETE /v1/subscriptions/:id, or dunning that ran out of retries. */
export async function cancelSubscriptionNow(
  db: Db,
  current: SandboxObject,
  at: number,
  reason: 'cancellation_requested' | 'payment_failed' = 'cancellation_requested',
): Promise<SandboxObject> {
  const canceled: SandboxObject = {
    ...current,
    status: 'canceled',
    canceled_at: at,
    ended_at: at,
    cancel_at_period_end: false,
    cancellation_details: { comment: null, feedback: null, reason },
  };
  await saveObject(db, canceled);
  await stopCollection(db, canceled.id);
  await recordEvent(db, 'customer.subscription.deleted', canceled, at);
  return canceled;
}

/**
 * Stripe stops collecting a canceled subscription's open invoices: no more retries. (Stripe
 * would send `invoice.updated`; the sandbox records no event for it.)
 */
export async function stopCollection(db: Db, subscriptionId: string): Promise<void> {
  const open = await findAllObjects(db, INVOICE_TYPE, [
    { field: 'parent.subscription_details.subscription', in: [subscriptionId] },
    { field: 'status', in: ['open'] },
  ]);
  for (const invoice of open) {
    if (invoice.auto_advance === false && invoice.next_payment_attempt === null) continue;
    await saveObject(db, { ...invoice, auto_advance: false, next_payment_attempt: null });
  }
}

/**
 * The subscription's status after a payment on its latest invoice: paid makes a `past_due`
 * or `incomplete` one `active`; a failure makes an `active` one `past_due`. A payment on an
 * older invoice changes nothing (Stripe follows the latest).
 */
export async function settleAfterPayment(
  db: Db,
  subscription: SandboxObject,
  invoice: SandboxObject,
  outcome: PaymentOutcome,
  at: number,
): Promise<SandboxObject> {
  if (subscription.latest_invoice !== invoice.id) return subscription;
  const status = String(subscription.status);
  let next = status;
  if (outcome === 'paid' && (status === 'past_due' || status === 'incomplete')) next = 'active';
  if (failed(outcome) && status === 'active') next = 'past_due';
  if (next === status) return subscription;
  return saveWithEvent(db, subscription, { ...subscription, status: next }, at);
}

export async function lockedCustomer(db: Db, id: string): Promise<SandboxObject> {
  const customer = await findObjectForUpdate(db, CUSTOMER_TYPE, id);
  if (!customer) throw new Error(`billing sandbox: no customer ${id}`);
  return customer;
}

export { subscriptionIdOf } from './calendar';

/**
 * `POST /v1/invoices/:id/pay`: charges an open (or uncollectible) invoice now, to
 * `paymentMethod` (a card of the invoice's customer) or else the subscription's or the
 * customer's default. A failed charge counts as an attempt (`invoice.payment_failed`) and
 * answers `paid: false`, committed; the caller answers Stripe's card error. Paying the latest
 * invoice of a `past_due` or `incomplete` subscription makes it `active`. Runs in a
 * transaction of its own (a savepoint inside the caller's) and takes the locks every write
 * takes, in the same order: the test clock's row, the subscription's, then the customer's.
 * Stripe's errors: an unknown invoice (404), one already paid or void, no card at all (400).
 */
export async function payOpenInvoice(
  db: Db,
  invoiceId: string,
  options: { paymentMethod?: string; at?: number; authenticated?: boolean } = {},
): Promise<{ invoice: SandboxObject; paid: boolean; outcome: PaymentOutcome }> {
  return db.transaction(async (tx) => {
    const found = await findObject(tx, INVOICE_TYPE, invoiceId);
    if (!found) throw resourceMissing('invoice', invoiceId);
    const owner = await findObject(tx, CUSTOMER_TYPE, String(found.customer));
    if (!owner) throw resourceMissing('customer', String(found.customer));
    const now = await customerNow(tx, owner, true);
    const at = options.at ?? now;
    const subscriptionId = subscriptionIdOf(found);
    const subscription = subscriptionId
      ? await findObjectForUpdate(tx, SUBSCRIPTION_TYPE, subscriptionId)
      : null;
    const customer = await lockedCustomer(tx, owner.id);
    // Read again under the locks: a retry or another payment may have settled it meanwhile.
    const invoice = (await findObject(tx, INVOICE_TYPE, invoiceId)) ?? found;
    if (invoice.status === 'paid') {
      throw invalidRequest('Invoice is already paid', undefined, 'invoice_already_paid');
    }
    if (invoice.status === 'void') throw invalidRequest('Voided invoices cannot be paid.');
    if (invoice.status === 'draft') {
      // Unreachable today: the sandbox finalizes every invoice as it makes it.
      throw invalidRequest('The billing sandbox pays only finalized invoices.');
    }
    if (options.paymentMethod) {
      await requireAttachedPaymentMethod(tx, options.paymentMethod, customer.id, 'payment_method');
    } else if (
      num(invoice, 'amount_remaining') > 0 &&
      !(await defaultPaymentMethod(tx, subscription, customer))
    ) {
      throw noPaymentMethodError();
    }
    const result = await attemptPayment(tx, invoice, subscription, customer, at, {
      scheduled: false,
      paymentMethod: options.paymentMethod,
      authenticated: options.authenticated,
    });
    if (subscription && result.outcome === 'paid') {
      await settleAfterPayment(tx, subscription, result.invoice, 'paid', at);
    }
    return {
      invoice: result.invoice,
      paid: result.outcome === 'paid',
      outcome: result.outcome,
    };
  });
}
