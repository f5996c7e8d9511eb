import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { billingProvider } from '@/server/features/billing';

/**
 * Whether an invoice-billed customer is paid up: an open sent invoice past its due date makes
 * it `overdue` (the organisation's admins are warned); once the publisher's grace period
 * (INVOICE_GRACE_DAYS) has also passed, `suspended` (the organisation's seats stop giving
 * access until the invoice is paid). Paying it brings the customer back to `current`.
 */

export type InvoiceStanding =
  | { state: 'current' }
  | {
      state: 'overdue' | 'suspended';
      /** The oldest unpaid invoice past its due date. */
      invoiceId: string;
      dueDate: number;
      /** When the seats are (or were) suspended: the due date plus the grace period. */
      suspendsAt: number;
      amountRemaining: number;
    };

const DAY = 86_400;

/** The rule alone, on the open invoices' due dates (Unix seconds). */
export function standingOf(
  open: { id: string; dueDate: number | null; amountRemaining: number }[],
  graceDays: number,
  now: number,
): InvoiceStanding {
  const late = open
    .filter((invoice) => invoice.dueDate !== null && invoice.dueDate <= now)
    .sort((a, b) => (a.dueDate ?? 0) - (b.dueDate ?? 0))[0];
  if (!late || late.dueDate === null) return { state: 'current' };
  const suspendsAt = late.dueDate + graceDays * DAY;
  return {
    state: now >= suspendsAt ? 'suspended' : 'overdue',
    invoiceId: late.id,
    dueDate: late.dueDate,
    suspendsAt,
    amountRemaining: open.reduce((sum, invoice) => sum + invoice.amountRemaining, 0),
  };
}

/**
 * The customer's standing now, from its open invoices on the provider: a sent invoice past its
 * due date, or a card payment that failed (a card organisation's, its subscription `past_due`
 * while the provider retries), counted from the day the charge was due.
 */
export async function invoiceStanding(
  db: Db,
  customerId: string,
  graceDays: number,
  now: number,
): Promise<InvoiceStanding> {
  const { stripe } = await billingProvider(db);
  const open: { id: string; dueDate: number | null; amountRemaining: number }[] = [];
  for await (const invoice of stripe.invoices.list({ customer: customerId, status: 'open' })) {
    const dueDate =
      invoice.collection_method === 'send_invoice'
        ? invoice.due_date
        : // A card's charge that failed and is still being retried (its subscription past_due):
          // late from the day it was due. An abandoned first charge is not retried: left out.
          invoice.attempted && invoice.next_payment_attempt !== null
          ? (invoice.status_transitions.finalized_at ?? invoice.created)
          : null;
    if (dueDate === null) continue;
    open.push({ id: invoice.id, dueDate, amountRemaining: invoice.amount_remaining });
  }
  return standingOf(open, graceDays, now);
}
