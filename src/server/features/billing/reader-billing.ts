import 'server-only';
import { and, desc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { billingInvoices, billingNotifications, subscriptions } from '@/server/platform/db/schema';
import { listPlans } from './catalogue';
import { trialDaysFor } from './checkout';
import { customerIdOf } from './customers';
import { duplicateClaimKey } from './one-plan';
import type { InvoiceLine, InvoiceRow } from './records';
import { type PlanKey } from '@/lib/billing/plans';

/**
 * What the plans page, the account page and the receipts show a reader about their own
 * billing, from the site's records (never a call to the provider on a page view, except the
 * trial check of a reader who has a customer and no records yet).
 */

export type CurrentPlan = {
  subscriptionId: string;
  /** `gift`: months given (docs/decisions/054-gift-subscriptions.md), ending with their term. */
  provider: 'stripe' | 'complimentary' | 'gift';
  planName: string;
  planKey: PlanKey | null;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
};

export type BillingSummary = {
  /** The reader's provider customer (stripeId), for the portal button. */
  customerId: string | null;
  /** The live plan (active, trialing or past_due), newest first. */
  current: CurrentPlan | null;
  /** Free days a checkout would start with for this reader (0: none). */
  trialDays: number;
};

const LIVE = ['active', 'trialing', 'past_due'];

export async function billingSummaryFor(db: Db, userId: string): Promise<BillingSummary> {
  const [rows, customerId, plans] = await Promise.all([
    db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, LIVE)))
      .orderBy(desc(subscriptions.createdAt))
      .limit(1),
    customerIdOf(db, userId),
    listPlans(db),
  ]);
  const row = rows[0];
  const expired =
    row && row.provider !== 'stripe' && row.currentPeriodEnd && row.currentPeriodEnd <= new Date();
  const current: CurrentPlan | null =
    row && !expired
      ? {
          subscriptionId: row.id,
          provider:
            row.provider === 'stripe'
              ? 'stripe'
              : row.provider === 'gift'
                ? 'gift'
                : 'complimentary',
          planName: row.planName,
          planKey: plans.find((plan) => plan.priceId === row.priceId)?.key ?? null,
          status: row.status,
          cancelAtPeriodEnd: row.cancelAtPeriodEnd,
          currentPeriodEnd: row.currentPeriodEnd,
          trialEnd: row.trialEnd,
        }
      : null;
  const trialDays = current ? 0 : await trialDaysFor(db, userId);
  return { customerId, current, trialDays };
}

export type Receipt = Omit<InvoiceRow, 'lines'> & { lines: InvoiceLine[] };

/**
 * Not a payment of a second plan the one-plan rule took back (src/server/features/billing/one-plan.ts):
 * it was refunded in full, and a receipt for it would claim money the reader did not pay.
 */
const notReversed = sql`not exists (select 1 from ${billingNotifications} where ${billingNotifications.key} = ${duplicateClaimKey('')} || ${billingInvoices.subscriptionId})`;

/** The reader's paid invoices with something paid (not a trial's ¥0), newest first. */
export async function listReceipts(db: Db, userId: string): Promise<Receipt[]> {
  const rows = await db
    .select()
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.userId, userId),
        eq(billingInvoices.status, 'paid'),
        gt(billingInvoices.total, 0),
        notReversed,
      ),
    )
    .orderBy(desc(billingInvoices.createdAt));
  return rows.map((row) => ({ ...row, lines: row.lines as InvoiceLine[] }));
}

/** One paid invoice of the reader's; null for anyone else's (the page answers 404). */
export async function findReceipt(
  db: Db,
  userId: string,
  invoiceId: string,
): Promise<Receipt | null> {
  const [row] = await db
    .select()
    .from(billingInvoices)
    .where(
      and(
        eq(billingInvoices.id, invoiceId),
        eq(billingInvoices.userId, userId),
        eq(billingInvoices.status, 'paid'),
        gt(billingInvoices.total, 0),
        notReversed,
      ),
    );
  return row ? { ...row, lines: row.lines as InvoiceLine[] } : null;
}
