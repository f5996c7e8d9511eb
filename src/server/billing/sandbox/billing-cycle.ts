import 'server-only';
import type { Db } from '@/server/db/client';
import { invalidRequest, resourceMissing } from './errors';
import { recordEvent, previousAttributes } from './events';
import {
  PAYMENT_METHOD_TYPE,
  cardDeclined,
  chargePaymentMethod,
  requireAttachedPaymentMethod,
} from './resources/payment-methods';
import {
  type FieldFilter,
  type SandboxObject,
  findAllObjects,
  findObject,
  findObjectForUpdate,
  insertObject,
  insertObjectIfNew,
  newObjectId,
  nowSeconds,
  saveObject,
} from './object-store';

/**
 * The billing engine behind subscriptions, invoices and test clocks: periods, invoices with
 * Japanese consumption tax, prorations, charging invoices to the customer's card, and the
 * transitions a subscription goes through as its time passes (trial end and its notice,
 * renewal, payment retries and dunning, incomplete expiry, cancellation at period end). Every
 * change records its Stripe event. Callers run these inside one database transaction, except
 * payOpenInvoice and advanceClocklessSubscriptions, which open their own.
 */

export const SUBSCRIPTION_TYPE = 'subscription';
export const INVOICE_TYPE = 'invoice';
export const INVOICE_ITEM_TYPE = 'invoiceitem';
export const TAX_RATE_TYPE = 'tax_rate';
const CUSTOMER_TYPE = 'customer';
const CLOCK_TYPE = 'test_helpers.test_clock';

/** Statuses in which time still moves a subscription on. */
export const LIVE_STATUSES = ['trialing', 'active', 'past_due'];

const DAY = 24 * 60 * 60;

type Interval = 'day' | 'week' | 'month' | 'year';
type Recurring = { interval: Interval; interval_count: number };

// ---- reading the stored JSON ---------------------------------------------------------------

export function recurringOf(price: SandboxObject): Recurring {
  return price.recurring as Recurring;
}

export function itemOf(subscription: SandboxObject): SandboxObject {
  const item = (subscription.items as { data: SandboxObject[] }).data[0];
  if (!item) throw new Error(`billing sandbox: subscription ${subscription.id} has no item`);
  return item;
}

function priceOf(subscription: SandboxObject): SandboxObject {
  return itemOf(subscription).price as SandboxObject;
}

function num(object: SandboxObject, field: string): number {
  return object[field] as number;
}

// ---- time ----------------------------------------------------------------------------------

/**
 * "Now" for a customer: its test clock's frozen time, else the real time. With `lock`, the
 * clock's row stays locked until the transaction ends, so a change made through the API and a
 * clock advance never interleave (both take the clock first, then the subscription).
 */
export async function customerNow(db: Db, customer: SandboxObject, lock = false): Promise<number> {
  const clockId = customer.test_clock;
  if (typeof clockId !== 'string') return nowSeconds();
  const clock = lock
    ? await findObjectForUpdate(db, CLOCK_TYPE, clockId)
    : await findObject(db, CLOCK_TYPE, clockId);
  return clock ? num(clock, 'frozen_time') : nowSeconds();
}

function addMonths(anchor: number, months: number): number {
  const date = new Date(anchor * 1000);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + months;
  // Stripe keeps the anchor's day, clamped to the month's last day (31 Jan → 28 Feb → 31 Mar).
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return (
    Date.UTC(
      year,
      month,
      Math.min(date.getUTCDate(), lastDay),
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ) / 1000
  );
}

/** The end of the `count`-th interval after the anchor. */
function afterIntervals(anchor: number, recurring: Recurring, count: number): number {
  const n = recurring.interval_count * count;
  switch (recurring.interval) {
    case 'day':
      return anchor + n * DAY;
    case 'week':
      return anchor + n * 7 * DAY;
    case 'month':
      return addMonths(anchor, n);
    case 'year':
      return addMonths(anchor, 12 * n);
  }
}

/** The first period boundary counted from the anchor that lies after `time`. */
export function nextPeriodEnd(anchor: number, recurring: Recurring, time: number): number {
  for (let count = 1; count < 100_000; count++) {
    const end = afterIntervals(anchor, recurring, count);
    if (end > time) return end;
  }
  throw new Error('billing sandbox: period out of range');
}

// ---- tax -----------------------------------------------------------------------------------

/** Japan's standard consumption tax; the sandbox's only rate. */
const TAX_PERCENT = 10;
export const TAX_RATE_ID = 'txr_sandbox_jp_consumption_10';

async function ensureTaxRate(db: Db, created: number): Promise<void> {
  await insertObjectIfNew(db, TAX_RATE_TYPE, {
    id: TAX_RATE_ID,
    object: 'tax_rate',
    active: true,
    country: 'JP',
    created,
    description: '消費税（標準税率）',
    display_name: '消費税',
    effective_percentage: TAX_PERCENT,
    flat_amount: null,
    inclusive: true,
    jurisdiction: 'JP',
    jurisdiction_level: 'country',
    livemode: false,
    metadata: {},
    percentage: TAX_PERCENT,
    rate_type: 'percentage',
    state: null,
    tax_type: 'jct',
  });
}

type TaxBehavior = 'inclusive' | 'exclusive';

/** A price's tax behaviour; `unspecified` is taken as inclusive, as Japanese prices are shown. */
function taxBehaviorOf(price: SandboxObject): TaxBehavior {
  return price.tax_behavior === 'exclusive' ? 'exclusive' : 'inclusive';
}

/** Tax in an amount (inclusive) or on it (exclusive), rounded down in yen, sign kept. */
export function taxOf(amount: number, behavior: TaxBehavior): number {
  const base = behavior === 'inclusive' ? 100 + TAX_PERCENT : 100;
  return Math.sign(amount) * Math.floor((Math.abs(amount) * TAX_PERCENT) / base);
}

function taxEntry(amount: number, behavior: TaxBehavior) {
  const tax = taxOf(amount, behavior);
  return {
    amount: tax,
    tax_behavior: behavior,
    tax_rate_details: { tax_rate: TAX_RATE_ID },
    taxability_reason: 'standard_rated',
    taxable_amount: behavior === 'inclusive' ? amount - tax : amount,
    type: 'tax_rate_details',
  };
}

// ---- descriptions --------------------------------------------------------------------------

function formatAmount(amount: number, currency: string): string {
  return currency === 'jpy'
    ? `¥${amount.toLocaleString('en-US')}`
    : `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

function formatDate(time: number): string {
  return new Date(time * 1000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

async function productName(db: Db, price: SandboxObject): Promise<string> {
  const product = await findObject(db, 'product', String(price.product));
  return typeof product?.name === 'string' ? product.name : String(price.product);
}

async function priceDescription(db: Db, price: SandboxObject): Promise<string> {
  const recurring = recurringOf(price);
  const per =
    recurring.interval_count === 1
      ? recurring.interval
      : `every ${recurring.interval_count} ${recurring.interval}s`;
  return `1 × ${await productName(db, price)} (at ${formatAmount(num(price, 'unit_amount'), String(price.currency))} / ${per})`;
}

// ---- invoices ------------------------------------------------------------------------------

type LineInput = {
  amount: number;
  description: string;
  period: { start: number; end: number };
  price: SandboxObject;
  proration: boolean;
  invoiceItem: string | null;
};

type InvoiceInput = {
  id?: string;
  subscription: SandboxObject;
  customer: SandboxObject;
  billingReason: 'subscription_create' | 'subscription_cycle' | 'subscription_update';
  lines: LineInput[];
  at: number;
  periodStart: number;
  periodEnd: number;
  /** False leaves the finalized invoice open and unattempted (`default_incomplete`). */
  collect?: boolean;
  /** Runs once the payment's outcome is known, before the invoice's events are recorded. */
  beforeEvents?: (outcome: PaymentOutcome) => Promise<void>;
};

/** What became of a payment: paid (or nothing to pay), declined, no card to charge, or not tried. */
export type PaymentOutcome = 'paid' | 'declined' | 'no_payment_method' | 'not_attempted';

const failed = (outcome: PaymentOutcome) =>
  outcome === 'declined' || outcome === 'no_payment_method';

function planOf(price: SandboxObject): SandboxObject {
  const recurring = recurringOf(price);
  return {
    id: price.id,
    object: 'plan',
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

function lineObject(invoiceId: string, subscription: SandboxObject, line: LineInput) {
  const behavior = taxBehaviorOf(line.price);
  return {
    id: newObjectId('il'),
    object: 'line_item',
    amount: line.amount,
    currency: line.price.currency,
    description: line.description,
    discount_amounts: [],
    discountable: !line.proration,
    discounts: [],
    invoice: invoiceId,
    livemode: false,
    metadata: {},
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: line.invoiceItem,
        proration: line.proration,
        proration_details: { credited_items: null },
        subscription: subscription.id,
        subscription_item: itemOf(subscription).id,
      },
    },
    period: line.period,
    pretax_credit_amounts: [],
    pricing: {
      type: 'price_details',
      price_details: { price: line.price.id, product: line.price.product },
      unit_amount_decimal: String(line.price.unit_amount),
    },
    quantity: 1,
    quantity_decimal: '1',
    subscription: subscription.id,
    subtotal: line.amount,
    taxes: [taxEntry(line.amount, behavior)],
  };
}

/**
 * Issues a finalized invoice and charges it to the subscription's or the customer's default
 * card, with the events Stripe sends: created (draft), finalized (open), then paid and
 * payment_succeeded, or payment_failed. Nothing due (a trial, a credit) is paid without a
 * charge. A failed renewal is retried on PAYMENT_RETRY_DAYS; a subscription's first invoice is
 * not (its subscription stays `incomplete` until paid or expired). A credit beyond the total
 * (a downgrade's proration) goes to the customer's balance, and the balance is applied to the
 * next invoice, as on Stripe.
 */
async function issueInvoice(
  db: Db,
  input: InvoiceInput,
): Promise<{ invoice: SandboxObject; outcome: PaymentOutcome }> {
  const { subscription, at } = input;
  // The customer's invoice number and balance change here: its row is held until the end.
  const customer =
    (await findObjectForUpdate(db, CUSTOMER_TYPE, input.customer.id)) ?? input.customer;
  await ensureTaxRate(db, at);
  const id = input.id ?? newObjectId('in');
  const currency = String(priceOf(subscription).currency);
  const lines = input.lines.map((line) => lineObject(id, subscription, line));
  const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
  // Tax is rounded once per invoice and rate, as Japan's qualified invoices require.
  const totalTaxes = (['inclusive', 'exclusive'] as const).flatMap((behavior) => {
    const lineAmounts = input.lines.filter((line) => taxBehaviorOf(line.price) === behavior);
    if (lineAmounts.length === 0) return [];
    const amount = lineAmounts.reduce((sum, line) => sum + line.amount, 0);
    const { taxability_reason: _reason, ...entry } = taxEntry(amount, behavior);
    return [entry];
  });
  const inclusiveTax = totalTaxes
    .filter((entry) => entry.tax_behavior === 'inclusive')
    .reduce((sum, entry) => sum + entry.amount, 0);
  const exclusiveTax = totalTaxes
    .filter((entry) => entry.tax_behavior === 'exclusive')
    .reduce((sum, entry) => sum + entry.amount, 0);
  const total = subtotal + exclusiveTax;
  const startingBalance = num(customer, 'balance');
  const owed = total + startingBalance;
  const amountDue = Math.max(0, owed);
  const endingBalance = Math.min(0, owed);
  const sequence = num(customer, 'next_invoice_sequence');
  const customerAfter: SandboxObject = {
    ...customer,
    balance: endingBalance,
    currency: customer.currency ?? currency,
    next_invoice_sequence: sequence + 1,
  };
  const customerPrevious = previousAttributes(customer, customerAfter);
  await saveObject(db, customerAfter);
  Object.assign(input.customer, customerAfter);

  const open: SandboxObject = {
    id,
    object: 'invoice',
    account_country: 'JP',
    account_name: null,
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amountDue,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: {
      disabled_reason: null,
      enabled: false,
      liability: null,
      provider: null,
      status: null,
    },
    automatically_finalizes_at: null,
    billing_reason: input.billingReason,
    collection_method: 'charge_automatically',
    created: at,
    currency,
    custom_fields: null,
    customer: customer.id,
    customer_account: null,
    customer_address: null,
    customer_email: customer.email,
    customer_name: customer.name,
    customer_phone: customer.phone,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    customer_tax_ids: [],
    default_payment_method: subscription.default_payment_method ?? null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: at,
    ending_balance: endingBalance,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: {
      object: 'list',
      data: lines,
      has_more: false,
      total_count: lines.length,
      url: `/v1/invoices/${id}/lines`,
    },
    livemode: false,
    metadata: {},
    next_payment_attempt: null,
    number: `${String(customer.invoice_prefix)}-${String(sequence).padStart(4, '0')}`,
    on_behalf_of: null,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
    },
    payment_settings: {
      default_mandate: null,
      payment_method_options: null,
      payment_method_types: null,
    },
    period_end: input.periodEnd,
    period_start: input.periodStart,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: startingBalance,
    statement_descriptor: null,
    status: 'open',
    status_transitions: {
      finalized_at: at,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal,
    subtotal_excluding_tax: subtotal - inclusiveTax,
    test_clock: customer.test_clock,
    total,
    total_discount_amounts: [],
    total_excluding_tax: total - inclusiveTax - exclusiveTax,
    total_pretax_credit_amounts: [],
    total_taxes: totalTaxes,
    webhooks_delivered_at: at,
  };
  const draft: SandboxObject = {
    ...open,
    status: 'draft',
    number: null,
    effective_at: null,
    ending_balance: null,
    status_transitions: { ...transitionsOf(open), finalized_at: null },
  };

  let outcome: PaymentOutcome;
  let invoice: SandboxObject;
  if (amountDue === 0) {
    outcome = 'paid';
    invoice = paidInvoice(open, at, false);
  } else if (input.collect === false) {
    outcome = 'not_attempted';
    invoice = open;
  } else {
    outcome = await chargeFor(db, subscription, customerAfter);
    // A subscription's first invoice is not retried: it is paid or expires with it.
    const retry = input.billingReason === 'subscription_create' ? null : retryAfter(open, at);
    invoice = outcome === 'paid' ? paidInvoice(open, at, true) : failedAttempt(open, retry);
  }
  await insertObject(db, INVOICE_TYPE, invoice);
  await input.beforeEvents?.(outcome);
  if (endingBalance !== startingBalance) {
    await recordEvent(db, 'customer.updated', customerAfter, at, customerPrevious);
  }
  await recordEvent(db, 'invoice.created', draft, at);
  await recordEvent(db, 'invoice.finalized', open, at);
  await recordPaymentEvents(db, invoice, outcome, at);
  for (const line of input.lines) {
    if (!line.invoiceItem) continue;
    const item = await findObject(db, INVOICE_ITEM_TYPE, line.invoiceItem);
    if (item) await saveObject(db, { ...item, invoice: id });
  }
  return { invoice, outcome };
}

// ---- payments ------------------------------------------------------------------------------

/**
 * Days after an invoice's first failed attempt (its finalization) at which it is retried:
 * Stripe's Smart Retries replaced by a fixed schedule, so tests and the site can count on it.
 * After the last one fails the subscription is canceled and the invoice marked uncollectible.
 */
export const PAYMENT_RETRY_DAYS = [3, 5, 7] as const;

/** An incomplete subscription's first invoice can be paid for this long, as on Stripe. */
export const INCOMPLETE_EXPIRY_SECONDS = 23 * 60 * 60;

function transitionsOf(invoice: SandboxObject): Record<string, number | null> {
  return invoice.status_transitions as Record<string, number | null>;
}

/** The scheduled retry after `time`, or null when none is left. */
function retryAfter(invoice: SandboxObject, time: number): number | null {
  const first = transitionsOf(invoice).finalized_at ?? time;
  for (const days of PAYMENT_RETRY_DAYS) {
    if (first + days * DAY > time) return first + days * DAY;
  }
  return null;
}

function paidInvoice(invoice: SandboxObject, at: number, charged: boolean): SandboxObject {
  return {
    ...invoice,
    status: 'paid',
    amount_paid: invoice.amount_due,
    amount_remaining: 0,
    attempted: true,
    attempt_count: num(invoice, 'attempt_count') + (charged ? 1 : 0),
    auto_advance: false,
    next_payment_attempt: null,
    status_transitions: { ...transitionsOf(invoice), paid_at: at },
  };
}

function failedAttempt(invoice: SandboxObject, next: number | null): SandboxObject {
  return {
    ...invoice,
    attempted: true,
    attempt_count: num(invoice, 'attempt_count') + 1,
    next_payment_attempt: next,
  };
}

async function recordPaymentEvents(
  db: Db,
  invoice: SandboxObject,
  outcome: PaymentOutcome,
  at: number,
): Promise<void> {
  if (outcome === 'paid') {
    await recordEvent(db, 'invoice.paid', invoice, at);
    await recordEvent(db, 'invoice.payment_succeeded', invoice, at);
  } else if (failed(outcome)) {
    await recordEvent(db, 'invoice.payment_failed', invoice, at);
  }
}

/**
 * The card an invoice is charged to, as Stripe picks it: the subscription's
 * `default_payment_method`, else the customer's `invoice_settings.default_payment_method`
 * (one since detached from the customer no longer counts).
 */
async function defaultPaymentMethod(
  db: Db,
  subscription: SandboxObject | null,
  customer: SandboxObject,
): Promise<string | null> {
  const settings = customer.invoice_settings as { default_payment_method?: unknown } | null;
  for (const id of [subscription?.default_payment_method, settings?.default_payment_method]) {
    if (typeof id !== 'string') continue;
    const paymentMethod = await findObject(db, PAYMENT_METHOD_TYPE, id);
    if (paymentMethod?.customer === customer.id) return id;
  }
  return null;
}

async function chargeFor(
  db: Db,
  subscription: SandboxObject | null,
  customer: SandboxObject,
  paymentMethod?: string,
): Promise<PaymentOutcome> {
  const id = paymentMethod ?? (await defaultPaymentMethod(db, subscription, customer));
  if (!id) return 'no_payment_method';
  return (await chargePaymentMethod(db, id)) ? 'paid' : 'declined';
}

/**
 * One attempt to collect an open (or uncollectible) invoice, with its events. A scheduled
 * retry moves `next_payment_attempt` to the next one on the schedule (null after the last); an
 * attempt asked for through the API (`invoices.pay`) leaves the schedule as it was.
 */
async function attemptPayment(
  db: Db,
  invoice: SandboxObject,
  subscription: SandboxObject | null,
  customer: SandboxObject,
  at: number,
  options: { scheduled: boolean; paymentMethod?: string },
): Promise<{ invoice: SandboxObject; outcome: PaymentOutcome }> {
  const due = num(invoice, 'amount_remaining') > 0;
  const outcome = due
    ? await chargeFor(db, subscription, customer, options.paymentMethod)
    : ('paid' as const);
  let next: SandboxObject;
  if (outcome === 'paid') next = paidInvoice(invoice, at, due);
  else {
    const scheduled = invoice.next_payment_attempt as number | null;
    next = failedAttempt(invoice, options.scheduled ? retryAfter(invoice, at) : scheduled);
  }
  await saveObject(db, next);
  await recordPaymentEvents(db, next, outcome, at);
  return { invoice: next, outcome };
}

async function pendingItemLines(db: Db, subscription: SandboxObject): Promise<LineInput[]> {
  const items = await findAllObjects(db, INVOICE_ITEM_TYPE, [
    { field: 'parent.subscription_details.subscription', in: [subscription.id] },
    { field: 'invoice', isNull: true },
  ]);
  const lines: LineInput[] = [];
  for (const item of items) {
    const pricing = item.pricing as { price_details: { price: string } };
    const price = await findObject(db, 'price', pricing.price_details.price);
    if (!price) continue;
    lines.push({
      amount: num(item, 'amount'),
      description: String(item.description),
      period: item.period as { start: number; end: number },
      price,
      proration: true,
      invoiceItem: item.id,
    });
  }
  return lines;
}

async function createProrationItem(
  db: Db,
  subscription: SandboxObject,
  customer: SandboxObject,
  price: SandboxObject,
  amount: number,
  description: string,
  period: { start: number; end: number },
): Promise<void> {
  const item: SandboxObject = {
    id: newObjectId('ii'),
    object: 'invoiceitem',
    amount,
    created: period.start,
    currency: price.currency,
    customer: customer.id,
    customer_account: null,
    date: period.start,
    description,
    discountable: false,
    discounts: [],
    invoice: null,
    livemode: false,
    metadata: {},
    net_amount: amount,
    parent: {
      type: 'subscription_details',
      subscription_details: {
        subscription: subscription.id,
        subscription_item: itemOf(subscription).id,
      },
    },
    period,
    pricing: {
      type: 'price_details',
      price_details: { price: price.id, product: price.product },
      unit_amount_decimal: String(price.unit_amount),
    },
    proration: true,
    proration_details: { credited_items: null },
    quantity: 1,
    quantity_decimal: '1',
    tax_rates: [],
    test_clock: customer.test_clock,
  };
  await insertObject(db, INVOICE_ITEM_TYPE, item);
  await recordEvent(db, 'invoiceitem.created', item, period.start);
}

// ---- subscriptions -------------------------------------------------------------------------

function withItem(
  subscription: SandboxObject,
  changes: { price?: SandboxObject; start?: number; end?: number },
): SandboxObject {
  const item = itemOf(subscription);
  const price = changes.price ?? (item.price as SandboxObject);
  const nextItem: SandboxObject = {
    ...item,
    current_period_start: changes.start ?? item.current_period_start,
    current_period_end: changes.end ?? item.current_period_end,
    plan: planOf(price),
    price,
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
    quantity: 1,
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
    collection_method: 'charge_automatically',
    created: at,
    currency: price.currency,
    customer: customer.id,
    customer_account: null,
    days_until_due: null,
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
      if (!trialEnd) subscription.status = outcome === 'paid' ? 'active' : 'incomplete';
      await insertObject(db, SUBSCRIPTION_TYPE, subscription);
      await recordEvent(db, 'customer.subscription.created', subscription, at);
    },
    lines: [
      {
        amount: trialEnd ? 0 : num(price, 'unit_amount'),
        description: trialEnd ? `Trial period for ${name}` : await priceDescription(db, price),
        period: { start: at, end: periodEnd },
        price,
        proration: false,
        invoiceItem: null,
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
const TRIAL_NOTICE_TYPE = 'sandbox.trial_notice';
const TRIAL_NOTICE_LEAD_SECONDS = 3 * DAY;

const trialNoticeId = (subscriptionId: string) => `trialnotice_${subscriptionId}`;

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

async function saveWithEvent(
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
  prorationBehavior: 'create_prorations' | 'none';
  metadata?: Record<string, string>;
  /** A card of the customer's (checked by the caller), or null to fall back on its default. */
  defaultPaymentMethod?: string | null;
};

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
  const oldPrice = priceOf(current);
  const newPrice = change.price;
  if (!newPrice || newPrice.id === oldPrice.id) return saveWithEvent(db, current, next, at);

  const item = itemOf(current);
  const start = num(item, 'current_period_start');
  const end = num(item, 'current_period_end');
  const oldRecurring = recurringOf(oldPrice);
  const newRecurring = recurringOf(newPrice);
  const sameCycle =
    oldRecurring.interval === newRecurring.interval &&
    oldRecurring.interval_count === newRecurring.interval_count;
  const prorate = change.prorationBehavior === 'create_prorations' && current.status !== 'trialing';
  const fraction = (end - at) / (end - start);
  const credit = -Math.round(num(oldPrice, 'unit_amount') * fraction);
  const creditText = `Unused time on ${await productName(db, oldPrice)} after ${formatDate(at)}`;

  if (sameCycle || current.status === 'trialing') {
    // In a trial the anchor is the trial's end, where the first period of the new price starts.
    next = withItem(next, { price: newPrice });
    next = await saveWithEvent(db, current, next, at);
    if (prorate) {
      const period = { start: at, end };
      await createProrationItem(db, next, customer, oldPrice, credit, creditText, period);
      const charge = Math.round(num(newPrice, 'unit_amount') * fraction);
      const chargeText = `Remaining time on ${await productName(db, newPrice)} after ${formatDate(at)}`;
      await createProrationItem(db, next, customer, newPrice, charge, chargeText, period);
    }
    return next;
  }

  // A new cycle: the anchor moves to now and the new price is invoiced at once.
  const newEnd = afterIntervals(at, newRecurring, 1);
  const invoiceId = newObjectId('in');
  next = withItem(next, { price: newPrice, start: at, end: newEnd });
  next.billing_cycle_anchor = at;
  next.latest_invoice = invoiceId;
  if (next.cancel_at_period_end) next.cancel_at = newEnd;
  next = await saveWithEvent(db, current, next, at);
  if (prorate) {
    await createProrationItem(db, next, customer, oldPrice, credit, creditText, { start: at, end });
  }
  const lines = await pendingItemLines(db, next);
  lines.push({
    amount: num(newPrice, 'unit_amount'),
    description: await priceDescription(db, newPrice),
    period: { start: at, end: newEnd },
    price: newPrice,
    proration: false,
    invoiceItem: null,
  });
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
async function stopCollection(db: Db, subscriptionId: string): Promise<void> {
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
async function settleAfterPayment(
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

async function lockedCustomer(db: Db, id: string): Promise<SandboxObject> {
  const customer = await findObjectForUpdate(db, CUSTOMER_TYPE, id);
  if (!customer) throw new Error(`billing sandbox: no customer ${id}`);
  return customer;
}

function subscriptionIdOf(invoice: SandboxObject): string | null {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | null;
  const id = parent?.subscription_details?.subscription;
  return typeof id === 'string' ? id : null;
}

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
  options: { paymentMethod?: string; at?: number } = {},
): Promise<{ invoice: SandboxObject; paid: boolean }> {
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
    });
    if (subscription && result.outcome === 'paid') {
      await settleAfterPayment(tx, subscription, result.invoice, 'paid', at);
    }
    return { invoice: result.invoice, paid: result.outcome === 'paid' };
  });
}

// ---- time passing --------------------------------------------------------------------------

/** Statuses in which something is still due to happen to a subscription at a set time. */
const TIMED_STATUSES = [...LIVE_STATUSES, 'incomplete'];

/** A subscription being moved through time, with what is pending on it. */
type Track = {
  subscription: SandboxObject;
  /** Its open invoices with a retry scheduled. */
  retrying: SandboxObject[];
  /** Its pending trial_will_end notice, if any. */
  notice: SandboxObject | null;
};

type Transition = {
  at: number;
  kind: 'expire' | 'retry' | 'trial_will_end' | 'period_end';
  invoice?: SandboxObject;
};

/** At one instant: an expiry first, then retries of older invoices, then a period's end. */
const KIND_ORDER: Transition['kind'][] = ['expire', 'retry', 'trial_will_end', 'period_end'];

async function loadTrack(db: Db, subscription: SandboxObject): Promise<Track> {
  const open = await findAllObjects(db, INVOICE_TYPE, [
    { field: 'parent.subscription_details.subscription', in: [subscription.id] },
    { field: 'status', in: ['open'] },
  ]);
  const notice =
    subscription.status === 'trialing'
      ? await findObject(db, TRIAL_NOTICE_TYPE, trialNoticeId(subscription.id))
      : null;
  return {
    subscription,
    retrying: open.filter((invoice) => typeof invoice.next_payment_attempt === 'number'),
    notice,
  };
}

/** What time next does to a subscription, or null if nothing. */
function nextTransition(track: Track): Transition | null {
  const { subscription, notice } = track;
  const status = String(subscription.status);
  const candidates: Transition[] = [];
  if (status === 'incomplete') {
    candidates.push({
      at: num(subscription, 'created') + INCOMPLETE_EXPIRY_SECONDS,
      kind: 'expire',
    });
  }
  if (LIVE_STATUSES.includes(status)) {
    for (const invoice of track.retrying) {
      candidates.push({ at: num(invoice, 'next_payment_attempt'), kind: 'retry', invoice });
    }
    if (status === 'trialing' && notice && notice.sent_at === null) {
      candidates.push({ at: num(notice, 'due_at'), kind: 'trial_will_end' });
    }
    candidates.push({ at: num(itemOf(subscription), 'current_period_end'), kind: 'period_end' });
  }
  candidates.sort((a, b) => a.at - b.at || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind));
  return candidates[0] ?? null;
}

/** Moves a subscription over the boundary at its current period's end. */
async function crossPeriodEnd(db: Db, track: Track): Promise<void> {
  const current = track.subscription;
  const item = itemOf(current);
  const at = num(item, 'current_period_end');
  if (current.cancel_at_period_end) {
    const canceled: SandboxObject = {
      ...current,
      status: 'canceled',
      ended_at: at,
      canceled_at: current.canceled_at ?? at,
    };
    await saveObject(db, canceled);
    await stopCollection(db, canceled.id);
    await recordEvent(db, 'customer.subscription.deleted', canceled, at);
    track.subscription = canceled;
    track.retrying = [];
    return;
  }
  const customer = await findObject(db, CUSTOMER_TYPE, String(current.customer));
  if (!customer) throw new Error(`billing sandbox: no customer for ${current.id}`);
  const price = priceOf(current);
  const newEnd = nextPeriodEnd(num(current, 'billing_cycle_anchor'), recurringOf(price), at);
  const invoiceId = newObjectId('in');
  let next = withItem(current, { start: at, end: newEnd });
  // A trial ends here; a past_due subscription stays so until an invoice of it is paid.
  if (next.status === 'trialing') next.status = 'active';
  next.latest_invoice = invoiceId;
  next = await saveWithEvent(db, current, next, at);
  const lines = await pendingItemLines(db, next);
  lines.unshift({
    amount: num(price, 'unit_amount'),
    description: await priceDescription(db, price),
    period: { start: at, end: newEnd },
    price,
    proration: false,
    invoiceItem: null,
  });
  const { invoice, outcome } = await issueInvoice(db, {
    id: invoiceId,
    subscription: next,
    customer,
    billingReason: 'subscription_cycle',
    at,
    periodStart: num(item, 'current_period_start'),
    periodEnd: at,
    lines,
  });
  track.subscription = await settleAfterPayment(db, next, invoice, outcome, at);
  if (typeof invoice.next_payment_attempt === 'number') track.retrying.push(invoice);
}

/**
 * A scheduled retry. Paid: the subscription is active again. The last one failed: Stripe's
 * "cancel the subscription" and "mark the invoice as uncollectible" settings.
 */
async function retryPayment(db: Db, track: Track, invoice: SandboxObject, at: number) {
  const customer = await lockedCustomer(db, String(invoice.customer));
  const result = await attemptPayment(db, invoice, track.subscription, customer, at, {
    scheduled: true,
  });
  track.retrying = track.retrying.filter((other) => other.id !== invoice.id);
  if (result.outcome === 'paid') {
    track.subscription = await settleAfterPayment(
      db,
      track.subscription,
      result.invoice,
      'paid',
      at,
    );
    return;
  }
  if (result.invoice.next_payment_attempt !== null) {
    track.retrying.push(result.invoice);
    return;
  }
  const canceled = await cancelSubscriptionNow(db, track.subscription, at, 'payment_failed');
  const uncollectible: SandboxObject = {
    ...result.invoice,
    status: 'uncollectible',
    auto_advance: false,
    next_payment_attempt: null,
    status_transitions: { ...transitionsOf(result.invoice), marked_uncollectible_at: at },
  };
  await saveObject(db, uncollectible);
  await recordEvent(db, 'invoice.marked_uncollectible', uncollectible, at);
  track.subscription = canceled;
  track.retrying = [];
}

/**
 * 23 hours after an `incomplete` subscription was made without its first invoice paid: it
 * becomes `incomplete_expired` (`customer.subscription.updated`) and the invoice is voided
 * (`invoice.voided`), giving back any customer credit it had used.
 */
async function expireIncomplete(db: Db, track: Track, at: number): Promise<void> {
  const current = track.subscription;
  const expired: SandboxObject = {
    ...current,
    status: 'incomplete_expired',
    canceled_at: at,
    ended_at: at,
  };
  track.subscription = await saveWithEvent(db, current, expired, at);
  track.retrying = [];
  const latest = current.latest_invoice;
  const invoice = typeof latest === 'string' ? await findObject(db, INVOICE_TYPE, latest) : null;
  if (invoice?.status !== 'open') return;
  const credit = num(invoice, 'ending_balance') - num(invoice, 'starting_balance');
  if (credit !== 0) {
    const customer = await lockedCustomer(db, String(invoice.customer));
    const after: SandboxObject = { ...customer, balance: num(customer, 'balance') - credit };
    await saveObject(db, after);
    await recordEvent(db, 'customer.updated', after, at, previousAttributes(customer, after));
  }
  const voided: SandboxObject = {
    ...invoice,
    status: 'void',
    auto_advance: false,
    next_payment_attempt: null,
    status_transitions: { ...transitionsOf(invoice), voided_at: at },
  };
  await saveObject(db, voided);
  await recordEvent(db, 'invoice.voided', voided, at);
}

async function sendTrialNotice(db: Db, track: Track, at: number): Promise<void> {
  if (!track.notice) return;
  await recordEvent(db, 'customer.subscription.trial_will_end', track.subscription, at);
  track.notice = { ...track.notice, sent_at: at };
  await saveObject(db, track.notice);
}

/**
 * Runs every transition due up to `target` across the subscriptions, in time order, so that
 * events come out in the order they happened. Answers how many it ran.
 */
async function runDue(db: Db, tracks: Track[], target: number): Promise<number> {
  for (let steps = 0; steps < 100_000; steps++) {
    let due: { track: Track; transition: Transition } | null = null;
    for (const track of tracks) {
      const transition = nextTransition(track);
      if (!transition || transition.at > target) continue;
      if (!due || transition.at < due.transition.at) due = { track, transition };
    }
    if (!due) return steps;
    const { track, transition } = due;
    switch (transition.kind) {
      case 'expire':
        await expireIncomplete(db, track, transition.at);
        break;
      case 'retry':
        if (transition.invoice) await retryPayment(db, track, transition.invoice, transition.at);
        break;
      case 'trial_will_end':
        await sendTrialNotice(db, track, transition.at);
        break;
      case 'period_end':
        await crossPeriodEnd(db, track);
        break;
    }
  }
  throw new Error('billing sandbox: too many periods in one advance');
}

/**
 * Brings every subscription of the clock's customers to `target`: period ends, trial ends
 * and their notices, payment retries and incomplete expiries, in time order across
 * subscriptions. The caller holds the clock's row; each subscription's row is taken here.
 */
export async function advanceClockSubscriptions(
  db: Db,
  clockId: string,
  target: number,
): Promise<void> {
  const customers = await findAllObjects(db, CUSTOMER_TYPE, [
    { field: 'test_clock', in: [clockId] },
  ]);
  if (customers.length === 0) return;
  const found = await findAllObjects(db, SUBSCRIPTION_TYPE, [
    { field: 'customer', in: customers.map((customer) => customer.id) },
    { field: 'status', in: TIMED_STATUSES },
  ]);
  const tracks: Track[] = [];
  for (const subscription of found) {
    const locked = await findObjectForUpdate(db, SUBSCRIPTION_TYPE, subscription.id);
    if (locked) tracks.push(await loadTrack(db, locked));
  }
  await runDue(db, tracks, target);
}

/**
 * Moves the subscriptions of customers without a test clock on to `now` (real time, given by
 * the caller's timer): whatever fell due — period ends, trial ends and their notices, payment
 * retries, incomplete expiries — happens at the time it was due, as a clock advance would do
 * it. One transaction per subscription; a subscription whose row another transaction holds
 * (another process's run, a request) is skipped and taken up on a later run, so runs in
 * several processes at once never do one thing twice. Answers how many subscriptions changed.
 */
export async function advanceClocklessSubscriptions(db: Db, now: number): Promise<number> {
  const clockless: FieldFilter = { field: 'test_clock', isNull: true };
  const due = new Set<string>();
  const ended = await findAllObjects(db, SUBSCRIPTION_TYPE, [
    clockless,
    { field: 'status', in: LIVE_STATUSES },
    { field: 'items.data.0.current_period_end', lte: now },
  ]);
  const expiring = await findAllObjects(db, SUBSCRIPTION_TYPE, [
    clockless,
    { field: 'status', in: ['incomplete'] },
    { field: 'created', lte: now - INCOMPLETE_EXPIRY_SECONDS },
  ]);
  for (const subscription of [...ended, ...expiring]) due.add(subscription.id);
  const retrying = await findAllObjects(db, INVOICE_TYPE, [
    clockless,
    { field: 'status', in: ['open'] },
    { field: 'next_payment_attempt', lte: now },
  ]);
  for (const invoice of retrying) {
    const id = subscriptionIdOf(invoice);
    if (id) due.add(id);
  }
  const notices = await findAllObjects(db, TRIAL_NOTICE_TYPE, [
    clockless,
    { field: 'sent_at', isNull: true },
    { field: 'due_at', lte: now },
  ]);
  for (const notice of notices) due.add(String(notice.subscription));

  let changed = 0;
  for (const id of due) {
    try {
      const steps = await db.transaction(async (tx) => {
        const locked = await findObjectForUpdate(tx, SUBSCRIPTION_TYPE, id, { skipLocked: true });
        if (!locked || locked.test_clock !== null) return 0;
        if (!TIMED_STATUSES.includes(String(locked.status))) return 0;
        return runDue(tx, [await loadTrack(tx, locked)], now);
      });
      if (steps > 0) changed++;
    } catch (error) {
      // One broken subscription must not stop the others on every run.
      console.error(`[billing-sandbox] could not move ${id} on:`, error);
    }
  }
  return changed;
}
