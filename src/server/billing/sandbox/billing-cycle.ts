import 'server-only';
import type { Db } from '@/server/db/client';
import { recordEvent, previousAttributes } from './events';
import {
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
 * Japanese consumption tax, prorations, and the transitions a subscription goes through as
 * its time passes (trial end, renewal, cancellation at period end). Every change records its
 * Stripe event. Callers run these inside one database transaction.
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
};

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
 * Issues a finalized invoice and pays it (payment failures come with a later part), with
 * the events Stripe sends for it: created (draft), finalized (open), paid, payment_succeeded.
 * A credit beyond the total (a downgrade's proration) goes to the customer's balance, and
 * the balance is applied to the next invoice, as on Stripe.
 */
async function issueInvoice(db: Db, input: InvoiceInput): Promise<SandboxObject> {
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
  await saveObject(db, customerAfter);
  if (endingBalance !== startingBalance) {
    await recordEvent(
      db,
      'customer.updated',
      customerAfter,
      at,
      previousAttributes(customer, customerAfter),
    );
  }
  Object.assign(input.customer, customerAfter);

  const paid: SandboxObject = {
    id,
    object: 'invoice',
    account_country: 'JP',
    account_name: null,
    account_tax_ids: null,
    amount_due: amountDue,
    amount_overpaid: 0,
    amount_paid: amountDue,
    amount_remaining: 0,
    amount_shipping: 0,
    application: null,
    attempt_count: amountDue > 0 ? 1 : 0,
    attempted: true,
    auto_advance: false,
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
    default_payment_method: null,
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
    status: 'paid',
    status_transitions: {
      finalized_at: at,
      marked_uncollectible_at: null,
      paid_at: at,
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
  const open: SandboxObject = {
    ...paid,
    status: 'open',
    amount_paid: 0,
    amount_remaining: amountDue,
    attempt_count: 0,
    attempted: false,
    status_transitions: { ...(paid.status_transitions as object), paid_at: null },
  };
  const draft: SandboxObject = {
    ...open,
    status: 'draft',
    number: null,
    effective_at: null,
    ending_balance: null,
    status_transitions: { ...(open.status_transitions as object), finalized_at: null },
  };
  await insertObject(db, INVOICE_TYPE, paid);
  await recordEvent(db, 'invoice.created', draft, at);
  await recordEvent(db, 'invoice.finalized', open, at);
  await recordEvent(db, 'invoice.paid', paid, at);
  await recordEvent(db, 'invoice.payment_succeeded', paid, at);
  for (const line of input.lines) {
    if (!line.invoiceItem) continue;
    const item = await findObject(db, INVOICE_ITEM_TYPE, line.invoiceItem);
    if (item) await saveObject(db, { ...item, invoice: id });
  }
  return paid;
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

export type NewSubscription = {
  customer: SandboxObject;
  price: SandboxObject;
  trialDays: number | undefined;
  metadata: Record<string, string>;
  cancelAtPeriodEnd: boolean;
};

export async function startSubscription(db: Db, input: NewSubscription): Promise<SandboxObject> {
  const { customer, price } = input;
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
    default_payment_method: null,
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
    status: trialEnd ? 'trialing' : 'active',
    test_clock: customer.test_clock,
    transfer_data: null,
    trial_end: trialEnd,
    trial_settings: { end_behavior: { missing_payment_method: 'create_invoice' } },
    trial_start: trialEnd ? at : null,
  };
  await insertObject(db, SUBSCRIPTION_TYPE, subscription);
  await recordEvent(db, 'customer.subscription.created', subscription, at);
  const name = await productName(db, price);
  await issueInvoice(db, {
    id: invoiceId,
    subscription,
    customer,
    billingReason: 'subscription_create',
    at,
    periodStart: at,
    periodEnd: at,
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
  return subscription;
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
};

/**
 * Changes a live subscription. A new price of the same interval keeps the period; with
 * `create_prorations` the unused time of the old price is credited and the rest of the
 * period on the new one charged, as pending invoice items billed with the next invoice. A new
 * interval (monthly ↔ yearly) restarts the billing cycle now and invoices at once, crediting
 * the unused time when prorating. During a trial the price changes and nothing is billed.
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
  await issueInvoice(db, {
    id: invoiceId,
    subscription: next,
    customer,
    billingReason: 'subscription_update',
    at,
    periodStart: at,
    periodEnd: at,
    lines,
  });
  return next;
}

/** Cancels at once (DELETE /v1/subscriptions/:id). */
export async function cancelSubscriptionNow(
  db: Db,
  current: SandboxObject,
  at: number,
): Promise<SandboxObject> {
  const canceled: SandboxObject = {
    ...current,
    status: 'canceled',
    canceled_at: at,
    ended_at: at,
    cancel_at_period_end: false,
    cancellation_details: { comment: null, feedback: null, reason: 'cancellation_requested' },
  };
  await saveObject(db, canceled);
  await recordEvent(db, 'customer.subscription.deleted', canceled, at);
  return canceled;
}

/** When time next changes a subscription (its trial's or period's end), or null if never. */
function nextTransition(subscription: SandboxObject): number | null {
  if (!LIVE_STATUSES.includes(String(subscription.status))) return null;
  return num(itemOf(subscription), 'current_period_end');
}

/** Moves a subscription over the boundary at its current period's end. */
async function crossPeriodEnd(db: Db, current: SandboxObject): Promise<SandboxObject> {
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
    await recordEvent(db, 'customer.subscription.deleted', canceled, at);
    return canceled;
  }
  const customer = await findObject(db, CUSTOMER_TYPE, String(current.customer));
  if (!customer) throw new Error(`billing sandbox: no customer for ${current.id}`);
  const price = priceOf(current);
  const newEnd = nextPeriodEnd(num(current, 'billing_cycle_anchor'), recurringOf(price), at);
  const invoiceId = newObjectId('in');
  let next = withItem(current, { start: at, end: newEnd });
  next.status = 'active';
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
  await issueInvoice(db, {
    id: invoiceId,
    subscription: next,
    customer,
    billingReason: 'subscription_cycle',
    at,
    periodStart: num(item, 'current_period_start'),
    periodEnd: at,
    lines,
  });
  return next;
}

/**
 * Brings every live subscription of the clock's customers to `target`, crossing period ends
 * in time order across subscriptions so that events come out in the order they happened.
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
    { field: 'status', in: LIVE_STATUSES },
  ]);
  const subscriptions: SandboxObject[] = [];
  for (const subscription of found) {
    const locked = await findObjectForUpdate(db, SUBSCRIPTION_TYPE, subscription.id);
    if (locked) subscriptions.push(locked);
  }
  for (let steps = 0; steps < 100_000; steps++) {
    let due = -1;
    let dueAt = Infinity;
    subscriptions.forEach((subscription, index) => {
      const at = nextTransition(subscription);
      if (at !== null && at <= target && at < dueAt) {
        due = index;
        dueAt = at;
      }
    });
    const subscription = subscriptions[due];
    if (!subscription) return;
    subscriptions[due] = await crossPeriodEnd(db, subscription);
  }
  throw new Error('billing sandbox: too many periods in one advance');
}
