import 'server-only';
import type Stripe from 'stripe';
import type { Db } from '@/server/platform/db/client';
import { billingProvider } from '@/server/features/billing';
import { type Actor, recordActorAction, recordAudit } from '@/server/platform/audit/audit-log';
import { formatNumber } from '@/lib/format';

/**
 * 請求書払い on the provider (docs/decisions/059-invoice-billing.md): a subscription with
 * `collection_method: send_invoice`, its item's quantity the seats, paid by bank transfer to the
 * customer's virtual account (`customer_balance`, `jp_bank_transfer`). The organisation code
 * calls these with its customer and subscription ids; nothing here knows organisations.
 */

/** Days from an invoice's issue to its due date, unless told: the month's-end custom of 月末締め. */
export const DEFAULT_DAYS_UNTIL_DUE = 30;

/** How a sent invoice may be paid: by bank transfer to the customer's virtual account. */
export const BANK_TRANSFER_SETTINGS: Stripe.SubscriptionCreateParams.PaymentSettings = {
  payment_method_types: ['customer_balance'],
  payment_method_options: {
    customer_balance: {
      funding_type: 'bank_transfer',
      bank_transfer: { type: 'jp_bank_transfer' },
    },
  },
};

export type InvoiceSubscriptionInput = {
  customerId: string;
  /** The organisation plan's price (per seat and period, tax included). */
  priceId: string;
  seats: number;
  daysUntilDue?: number;
  metadata?: Record<string, string>;
  /** Who ordered (an organisation's admin, or staff): the audit record's actor. */
  actor: BillingActor;
};

/** A signed-in user through a request, or staff by name (`cli:…`, `user:…`) as organisations audit. */
export type BillingActor = Actor | { actor: string; ip?: string | null };

function audit(
  db: Db,
  actor: BillingActor,
  entry: { action: string; target: string; detail: Record<string, unknown> },
): Promise<void> {
  return 'userId' in actor
    ? recordActorAction(db, actor, entry)
    : recordAudit(db, { actor: actor.actor, ip: actor.ip ?? null, ...entry });
}

/**
 * Starts an invoice-billed subscription: `active` at once, its first invoice sent and due in
 * `daysUntilDue` days. Answers the subscription and that invoice's id.
 */
export async function startInvoiceSubscription(
  db: Db,
  input: InvoiceSubscriptionInput,
): Promise<{ subscription: Stripe.Subscription; invoiceId: string }> {
  requireSeats(input.seats);
  const { stripe } = await billingProvider(db);
  const subscription = await stripe.subscriptions.create({
    customer: input.customerId,
    items: [{ price: input.priceId, quantity: input.seats }],
    collection_method: 'send_invoice',
    days_until_due: input.daysUntilDue ?? DEFAULT_DAYS_UNTIL_DUE,
    payment_settings: BANK_TRANSFER_SETTINGS,
    metadata: input.metadata ?? {},
  });
  const invoiceId = idOf(subscription.latest_invoice);
  await audit(db, input.actor, {
    action: 'billing.invoice_subscription.started',
    target: `subscription:${subscription.id}`,
    detail: { customer: input.customerId, price: input.priceId, seats: input.seats, invoiceId },
  });
  return { subscription, invoiceId };
}

/**
 * The subscription's metadata key for seats paid beyond the item's quantity after a reduction:
 * `"<seats>:<unix time until which they are paid>"` (the period's end when they were removed).
 */
export const SEATS_PAID_KEY = 'seats_paid_until';

/**
 * The seats an organisation may use now: the item's quantity, or more until the end of the
 * period in which seats were removed (they were paid for it).
 */
export function usableSeats(subscription: Stripe.Subscription, now: number): number {
  const quantity = subscription.items.data[0]?.quantity ?? 1;
  const [paid, until] = (subscription.metadata[SEATS_PAID_KEY] ?? '').split(':').map(Number);
  return paid && until && now < until ? Math.max(quantity, paid) : quantity;
}

export type SeatChange = {
  subscription: Stripe.Subscription;
  /** Seats billed from now on (the item's quantity). */
  seats: number;
  /** The invoice of the added seats' prorated price (none for a reduction). */
  invoiceId: string | null;
};

/**
 * Changes the seats. More seats: at once, the rest of the period prorated and invoiced now
 * (`always_invoice`: the unused time of the old count credited, the remaining time of the new
 * count charged). Fewer seats: nothing is credited (`proration_behavior: none`); the next
 * renewal bills the new count, and the seats already paid stay usable until the period ends
 * (SEATS_PAID_KEY, read by usableSeats).
 */
export async function changeSeats(
  db: Db,
  subscriptionId: string,
  seats: number,
  now: number,
  actor: BillingActor,
): Promise<SeatChange> {
  requireSeats(seats);
  const { stripe } = await billingProvider(db);
  const current = await stripe.subscriptions.retrieve(subscriptionId);
  const item = current.items.data[0];
  if (!item) throw new Error(`invoice billing: ${subscriptionId} has no item`);
  const before = item.quantity ?? 1;
  if (seats === before) return { subscription: current, seats, invoiceId: null };
  const adding = seats > before;
  const paid = usableSeats(current, now);
  const subscription = await stripe.subscriptions.update(subscriptionId, {
    items: [{ id: item.id, quantity: seats }],
    proration_behavior: adding ? 'always_invoice' : 'none',
    metadata: {
      [SEATS_PAID_KEY]:
        adding && seats >= paid ? '' : `${String(paid)}:${String(item.current_period_end)}`,
    },
  });
  const invoiceId = adding ? idOf(subscription.latest_invoice) : null;
  await audit(db, actor, {
    action: 'billing.seats.changed',
    target: `subscription:${subscriptionId}`,
    detail: { from: before, to: seats, invoiceId },
  });
  return { subscription, seats, invoiceId };
}

/**
 * A bank transfer arriving on the customer's virtual account: Stripe's test helper
 * `fund_cash_balance` (test mode and the sandbox only). The provider applies it to the open
 * invoices it covers in full; a shorter transfer waits in the customer's cash balance.
 */
export async function fundBankTransfer(
  db: Db,
  customerId: string,
  amount: number,
  reference?: string,
): Promise<{ transaction: Stripe.CustomerCashBalanceTransaction; held: number }> {
  if (!Number.isInteger(amount) || amount <= 0) {
    throw new RangeError('振込金額は 1 円以上の整数で指定してください。');
  }
  const { stripe } = await billingProvider(db);
  const transaction = await stripe.testHelpers.customers.fundCashBalance(customerId, {
    amount,
    currency: 'jpy',
    ...(reference ? { reference } : {}),
  });
  // What is left once the transfer has paid the invoices it covers.
  const balance = await stripe.customers.retrieveCashBalance(customerId);
  return { transaction, held: balance.available?.jpy ?? 0 };
}

/** Seats of one subscription: 1 to 10,000 (an organisation larger than that asks the publisher). */
export const MAX_SEATS = 10_000;

function requireSeats(seats: number): void {
  if (!Number.isInteger(seats) || seats < 1 || seats > MAX_SEATS) {
    throw new RangeError(`席数は 1〜${formatNumber(MAX_SEATS)} の整数で指定してください。`);
  }
}

function idOf(value: string | { id: string } | null): string {
  if (!value) throw new Error('invoice billing: the provider answered no invoice');
  return typeof value === 'string' ? value : value.id;
}
