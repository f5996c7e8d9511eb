import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { findObject, findObjectForUpdate, nowSeconds, type SandboxObject } from '../object-store';

/**
 * The sandbox's billing calendar: the object types the billing cycle keeps, what it reads from
 * their stored JSON, a customer's "now" (its test clock's frozen time, else the real time) and
 * period boundaries as Stripe counts them.
 */

export const SUBSCRIPTION_TYPE = 'subscription';
export const INVOICE_TYPE = 'invoice';
export const INVOICE_ITEM_TYPE = 'invoiceitem';
export const TAX_RATE_TYPE = 'tax_rate';
export const CUSTOMER_TYPE = 'customer';
export const CLOCK_TYPE = 'test_helpers.test_clock';

/** Statuses in which time still moves a subscription on. */
export const LIVE_STATUSES = ['trialing', 'active', 'past_due'];

export const DAY = 24 * 60 * 60;

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

export function priceOf(subscription: SandboxObject): SandboxObject {
  return itemOf(subscription).price as SandboxObject;
}

/** The subscription an invoice was made for, if any. */
export function subscriptionIdOf(invoice: SandboxObject): string | null {
  const parent = invoice.parent as { subscription_details?: { subscription?: unknown } } | null;
  const id = parent?.subscription_details?.subscription;
  return typeof id === 'string' ? id : null;
}

export function num(object: SandboxObject, field: string): number {
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

export function addMonths(anchor: number, months: number): number {
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
export function afterIntervals(anchor: number, recurring: Recurring, count: number): number {
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
