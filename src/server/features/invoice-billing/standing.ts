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

/** The customer's standing now, from its open sent invoices on the provider. */
export async function invoiceStanding(
  db: Db,
  customerId: string,
  graceDays: number,
  now: number,
): Promise<InvoiceStanding> {
  const { stripe } = await billingProvider(db);
  const open: { id: string; dueDate: number | null; amountRemaining: number }[] = [];
  for await (const invoice of stripe.invoices.list({ customer: customerId, status: 'open' })) {
    if (invoice.collection_method !== 'send_invoice') continue;
    open.push({
      id: invoice.id,
      dueDate: invoice.due_date,
      amountRemaining: invoice.amount_remaining,
    });
  }
  return standingOf(open, graceDays, now);
}
