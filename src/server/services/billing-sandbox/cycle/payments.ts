import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { recordEvent } from '../events';
import { findObject, type SandboxObject, saveObject } from '../object-store';
import { recordChargeAttempt } from '../resources/payment-intents';
import { chargePaymentMethod, PAYMENT_METHOD_TYPE } from '../resources/payment-methods';
import { DAY, num } from './calendar';

/**
 * Payments: charging an invoice to the subscription's or the customer's default card, the
 * fixed retry schedule, and the events each attempt records.
 */

/**
 * What became of a payment: paid (or nothing to pay), declined, no card to charge, waiting for
 * the cardholder's 3-D Secure authentication, or not tried.
 */
export type PaymentOutcome =
  'paid' | 'declined' | 'no_payment_method' | 'requires_action' | 'not_attempted';

/** An attempt that left the invoice unpaid (a payment waiting for authentication is one). */
export const failed = (outcome: PaymentOutcome) =>
  outcome === 'declined' || outcome === 'no_payment_method' || outcome === 'requires_action';

/**
 * Days after an invoice's first failed attempt (its finalization) at which it is retried:
 * Stripe's Smart Retries replaced by a fixed schedule, so tests and the site can count on it.
 * After the last one fails the subscription is canceled and the invoice marked uncollectible.
 */
export const PAYMENT_RETRY_DAYS = [3, 5, 7] as const;

/** An incomplete subscription's first invoice can be paid for this long, as on Stripe. */
export const INCOMPLETE_EXPIRY_SECONDS = 23 * 60 * 60;

export function transitionsOf(invoice: SandboxObject): Record<string, number | null> {
  return invoice.status_transitions as Record<string, number | null>;
}

/** The scheduled retry after `time`, or null when none is left. */
export function retryAfter(invoice: SandboxObject, time: number): number | null {
  const first = transitionsOf(invoice).finalized_at ?? time;
  for (const days of PAYMENT_RETRY_DAYS) {
    if (first + days * DAY > time) return first + days * DAY;
  }
  return null;
}

export function paidInvoice(invoice: SandboxObject, at: number, charged: boolean): SandboxObject {
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

export function failedAttempt(invoice: SandboxObject, next: number | null): SandboxObject {
  return {
    ...invoice,
    attempted: true,
    attempt_count: num(invoice, 'attempt_count') + 1,
    next_payment_attempt: next,
  };
}

export async function recordPaymentEvents(
  db: Db,
  invoice: SandboxObject,
  outcome: PaymentOutcome,
  at: number,
): Promise<void> {
  if (outcome === 'paid') {
    await recordEvent(db, 'invoice.paid', invoice, at);
    await recordEvent(db, 'invoice.payment_succeeded', invoice, at);
  } else if (outcome === 'requires_action') {
    await recordEvent(db, 'invoice.payment_action_required', invoice, at);
  } else if (failed(outcome)) {
    await recordEvent(db, 'invoice.payment_failed', invoice, at);
  }
}

/**
 * The card an invoice is charged to, as Stripe picks it: the subscription's
 * `default_payment_method`, else the customer's `invoice_settings.default_payment_method`
 * (one since detached from the customer no longer counts).
 */
export async function defaultPaymentMethod(
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

/**
 * Charges the invoice to `paymentMethod`, else the default card, and keeps what the charge did
 * beside the invoice (its PaymentIntent). `authenticated`: the cardholder has just passed the
 * 3-D Secure challenge for it.
 */
export async function chargeFor(
  db: Db,
  subscription: SandboxObject | null,
  customer: SandboxObject,
  charge: { invoiceId: string; at: number; paymentMethod?: string; authenticated?: boolean },
): Promise<PaymentOutcome> {
  const id = charge.paymentMethod ?? (await defaultPaymentMethod(db, subscription, customer));
  if (!id) {
    await recordChargeAttempt(db, charge.invoiceId, null, 'no_payment_method', charge.at);
    return 'no_payment_method';
  }
  const result = await chargePaymentMethod(db, id, charge.authenticated ?? false);
  await recordChargeAttempt(db, charge.invoiceId, id, result, charge.at);
  return result === 'succeeded' ? 'paid' : result;
}

/**
 * One attempt to collect an open (or uncollectible) invoice, with its events. A scheduled
 * retry moves `next_payment_attempt` to the next one on the schedule (null after the last); an
 * attempt asked for through the API (`invoices.pay`) leaves the schedule as it was.
 */
export async function attemptPayment(
  db: Db,
  invoice: SandboxObject,
  subscription: SandboxObject | null,
  customer: SandboxObject,
  at: number,
  options: { scheduled: boolean; paymentMethod?: string; authenticated?: boolean },
): Promise<{ invoice: SandboxObject; outcome: PaymentOutcome }> {
  const due = num(invoice, 'amount_remaining') > 0;
  const outcome = due
    ? await chargeFor(db, subscription, customer, {
        invoiceId: invoice.id,
        at,
        paymentMethod: options.paymentMethod,
        authenticated: options.authenticated,
      })
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
