import 'server-only';
import type { Db } from '@/server/platform/db/client';
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
import {
  CUSTOMER_TYPE,
  INVOICE_ITEM_TYPE,
  INVOICE_TYPE,
  itemOf,
  num,
  priceOf,
  recurringOf,
} from './calendar';
import { payFromCashBalance } from './cash-balance';
import { discountLines } from './discounts';
import { collectionOf, scheduleOverdueNotice } from './send-invoice';
import { draftOf, invoiceTotals, numbered, openInvoice } from './invoice-object';
import { ensureTaxRate, taxBehaviorOf, taxEntry } from './tax';
import {
  chargeFor,
  failedAttempt,
  paidInvoice,
  type PaymentOutcome,
  recordPaymentEvents,
  retryAfter,
} from './payments';
import { formatNumber } from '@/lib/format';

/**
 * Invoices: issuing a finalized invoice with its lines, tax and events and charging it
 * (payments.ts), and the proration items a plan change leaves for the next invoice.
 */

// ---- descriptions --------------------------------------------------------------------------

function formatAmount(amount: number, currency: string): string {
  return currency === 'jpy'
    ? `¥${formatNumber(amount)}`
    : `${(amount / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

export function formatDate(time: number): string {
  return new Date(time * 1000).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

export async function productName(db: Db, price: SandboxObject): Promise<string> {
  const product = await findObject(db, 'product', String(price.product));
  return typeof product?.name === 'string' ? product.name : String(price.product);
}

export async function priceDescription(
  db: Db,
  price: SandboxObject,
  quantity = 1,
): Promise<string> {
  const recurring = recurringOf(price);
  const per =
    recurring.interval_count === 1
      ? recurring.interval
      : `every ${recurring.interval_count} ${recurring.interval}s`;
  return `${String(quantity)} × ${await productName(db, price)} (at ${formatAmount(num(price, 'unit_amount'), String(price.currency))} / ${per})`;
}

// ---- invoices ------------------------------------------------------------------------------

type LineInput = {
  amount: number;
  description: string;
  period: { start: number; end: number };
  price: SandboxObject;
  proration: boolean;
  invoiceItem: string | null;
  /** Seats: `amount` is the unit price times this (prorated for a proration). */
  quantity?: number;
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

export function planOf(price: SandboxObject): SandboxObject {
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

function lineObject(
  invoiceId: string,
  subscription: SandboxObject,
  line: LineInput,
  discount: { id: string; amount: number } | null,
) {
  const behavior = taxBehaviorOf(line.price);
  const discounted = discount !== null && discount.amount > 0;
  return {
    id: newObjectId('il'),
    object: 'line_item',
    amount: line.amount,
    currency: line.price.currency,
    description: line.description,
    discount_amounts: discounted ? [{ amount: discount.amount, discount: discount.id }] : [],
    discountable: !line.proration,
    discounts: discounted ? [discount.id] : [],
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
    quantity: line.quantity ?? 1,
    quantity_decimal: String(line.quantity ?? 1),
    subscription: subscription.id,
    subtotal: line.amount,
    // The tax is on what is charged: the amount less its discount, as on Stripe.
    taxes: [taxEntry(line.amount - (discount?.amount ?? 0), behavior)],
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
export async function issueInvoice(
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
  const applied = await discountLines(db, subscription, input.lines, at);
  const discountOf = (index: number) => applied?.amounts[index] ?? 0;
  const lines = input.lines.map((line, index) =>
    lineObject(
      id,
      subscription,
      line,
      applied ? { id: applied.discount, amount: discountOf(index) } : null,
    ),
  );
  const totals = invoiceTotals(
    input.lines.map((line, index) => ({
      amount: line.amount,
      discount: discountOf(index),
      behavior: taxBehaviorOf(line.price),
    })),
  );
  const startingBalance = num(customer, 'balance');
  const endingBalance = Math.min(0, totals.total + startingBalance);
  const customerAfter: SandboxObject = {
    ...numbered(customer),
    balance: endingBalance,
    currency: customer.currency ?? currency,
  };
  const customerPrevious = previousAttributes(customer, customerAfter);
  await saveObject(db, customerAfter);
  Object.assign(input.customer, customerAfter);

  const open = openInvoice({
    id,
    customer,
    currency,
    at,
    billingReason: input.billingReason,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { metadata: subscription.metadata, subscription: subscription.id },
    },
    period: { start: input.periodStart, end: input.periodEnd },
    lines,
    totals,
    balance: { starting: startingBalance, ending: endingBalance },
    discount: applied?.discount ?? null,
    defaultPaymentMethod: subscription.default_payment_method,
    collection: collectionOf(subscription, at),
  });
  const draft = draftOf(open);
  const amountDue = num(open, 'amount_due');
  const sent = subscription.collection_method === 'send_invoice';
  let outcome: PaymentOutcome;
  let invoice: SandboxObject;
  if (amountDue === 0) {
    outcome = 'paid';
    invoice = paidInvoice(open, at, false);
  } else if (input.collect === false || sent) {
    outcome = 'not_attempted';
    invoice = open;
  } else {
    outcome = await chargeFor(db, subscription, customerAfter, { invoiceId: id, at });
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
  if (sent && outcome === 'not_attempted') {
    // Stripe e-mails a send_invoice invoice as it is finalized; the site sends its own.
    await recordEvent(db, 'invoice.sent', invoice, at);
    await scheduleOverdueNotice(db, invoice);
    invoice = await payFromCashBalance(db, invoice, at);
    if (invoice.status === 'paid') outcome = 'paid';
  } else await recordPaymentEvents(db, invoice, outcome, at);
  for (const line of input.lines) {
    if (!line.invoiceItem) continue;
    const item = await findObject(db, INVOICE_ITEM_TYPE, line.invoiceItem);
    if (item) await saveObject(db, { ...item, invoice: id });
  }
  return { invoice, outcome };
}

/** The line charging the price for one period of its subscription (not a proration). */
export async function priceLine(
  db: Db,
  price: SandboxObject,
  period: { start: number; end: number },
  quantity = 1,
): Promise<LineInput> {
  const description = await priceDescription(db, price, quantity);
  const amount = num(price, 'unit_amount') * quantity;
  return { amount, description, period, price, proration: false, invoiceItem: null, quantity };
}

export async function pendingItemLines(db: Db, subscription: SandboxObject): Promise<LineInput[]> {
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
      quantity: num(item, 'quantity'),
    });
  }
  return lines;
}

export async function createProrationItem(
  db: Db,
  subscription: SandboxObject,
  customer: SandboxObject,
  price: SandboxObject,
  amount: number,
  description: string,
  period: { start: number; end: number },
  quantity = 1,
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
    quantity,
    quantity_decimal: String(quantity),
    tax_rates: [],
    test_clock: customer.test_clock,
  };
  await insertObject(db, INVOICE_ITEM_TYPE, item);
  await recordEvent(db, 'invoiceitem.created', item, period.start);
}
