import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { recordEvent } from '../events';
import {
  findAllObjects,
  findObject,
  insertObject,
  type SandboxObject,
  saveObject,
} from '../object-store';
import { DAY, INVOICE_TYPE, num } from './calendar';
import type { InvoiceCollection } from './invoice-object';

/**
 * `collection_method: send_invoice` (Stripe's 請求書払い): the subscription's invoices are
 * sent, not charged, and due `days_until_due` days after they are finalized. At its due date
 * an invoice still open is overdue (`invoice.overdue`, which Stripe sends after the number of
 * days its Automations set; the sandbox at the due date) and its subscription `past_due`.
 */

/** The due date and payment settings a send_invoice subscription gives the invoice made at `at`. */
export function collectionOf(subscription: SandboxObject, at: number): InvoiceCollection | null {
  if (subscription.collection_method !== 'send_invoice') return null;
  const settings = subscription.payment_settings as Record<string, unknown>;
  return {
    method: 'send_invoice',
    dueDate: at + num(subscription, 'days_until_due') * DAY,
    paymentSettings: {
      payment_method_options: settings.payment_method_options ?? null,
      payment_method_types: settings.payment_method_types ?? null,
    },
  };
}

/** The pending overdue notice of an open send_invoice invoice, kept beside it (never answered). */
export const OVERDUE_NOTICE_TYPE = 'sandbox.overdue_notice';

export async function scheduleOverdueNotice(db: Db, invoice: SandboxObject): Promise<void> {
  if (typeof invoice.due_date !== 'number') return;
  const parent = invoice.parent as { subscription_details?: { subscription?: string } } | null;
  await insertObject(db, OVERDUE_NOTICE_TYPE, {
    id: `overdue_${invoice.id}`,
    object: OVERDUE_NOTICE_TYPE,
    created: num(invoice, 'created'),
    invoice: invoice.id,
    subscription: parent?.subscription_details?.subscription ?? null,
    test_clock: invoice.test_clock,
    due_at: invoice.due_date,
    sent_at: null,
  });
}

/** The subscription's overdue notices not yet sent. */
export async function pendingOverdueNotices(
  db: Db,
  subscriptionId: string,
): Promise<SandboxObject[]> {
  return findAllObjects(db, OVERDUE_NOTICE_TYPE, [
    { field: 'subscription', in: [subscriptionId] },
    { field: 'sent_at', isNull: true },
  ]);
}

/**
 * The notice's due date has come: if its invoice is still open, `invoice.overdue`. Answers
 * whether it was (the caller makes the subscription `past_due`).
 */
export async function sendOverdueNotice(
  db: Db,
  notice: SandboxObject,
  at: number,
): Promise<boolean> {
  await saveObject(db, { ...notice, sent_at: at });
  const invoice = await findObject(db, INVOICE_TYPE, String(notice.invoice));
  if (invoice?.status !== 'open') return false;
  await recordEvent(db, 'invoice.overdue', invoice, at);
  return true;
}
