import 'server-only';
import { eq, getTableName } from 'drizzle-orm';
import type Stripe from 'stripe';
import { withKeyLock } from '@/lib/keyed-lock';
import { sourceOfMetadata } from '@/server/features/attribution';
import { noteAudienceChange } from '@/server/features/audience';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import {
  type SubscriptionDiscount,
  billingInvoices,
  subscriptions,
} from '@/server/platform/db/schema';
import { userIdOfCustomer } from './customers';
import { billingProvider } from './provider';

/**
 * The provider's subscriptions and invoices, copied into the site's records. Webhook handlers
 * never trust the event's copy of an object (events come late, twice and out of order): they
 * re-read the object from the provider and store what it says now, one object at a time per
 * process, so any order of the same events ends in the provider's state.
 */

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type InvoiceRow = typeof billingInvoices.$inferSelect;

const toDate = (seconds: number | null | undefined) =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

const idOf = (value: string | { id: string } | null | undefined) =>
  typeof value === 'string' ? value : (value?.id ?? null);

function planNameOf(subscription: Stripe.Subscription): string {
  const product = subscription.items.data[0]?.price.product;
  return typeof product === 'object' && !product.deleted ? product.name : '';
}

/** The discounts with their coupons, read with the subscription (the coupon's terms). */
const DISCOUNT_COUPONS = 'discounts.source.coupon';

const DURATIONS = ['once', 'repeating', 'forever'] as const;

/**
 * The subscription's discounts with their coupons' terms (expanded by `DISCOUNT_COUPONS`). A
 * discount whose coupon the provider no longer answers (deleted) is kept out: nothing to apply.
 */
function discountsOf(subscription: Stripe.Subscription): SubscriptionDiscount[] {
  return subscription.discounts.flatMap((discount) => {
    if (typeof discount === 'string' || discount.deleted) return [];
    const coupon = discount.source.coupon;
    if (!coupon || typeof coupon === 'string') return [];
    const duration = DURATIONS.find((known) => known === coupon.duration);
    // A duration this code does not know is not guessed at: the plan counts at its price.
    if (!duration) return [];
    return [
      {
        coupon: coupon.id,
        percentOff: coupon.percent_off,
        amountOff: coupon.amount_off,
        duration,
        durationInMonths: coupon.duration_in_months,
        start: new Date(discount.start * 1000).toISOString(),
        end: toDate(discount.end)?.toISOString() ?? null,
      },
    ];
  });
}

export type SubscriptionChange = { before: SubscriptionRow | null; after: SubscriptionRow };

/** Re-reads a subscription from the provider and stores it; null if it is no reader's. */
export function syncSubscription(
  db: Db,
  subscriptionId: string,
): Promise<SubscriptionChange | null> {
  return withKeyLock(`billing:${subscriptionId}`, async () => {
    const { stripe } = await billingProvider(db);
    const subscription = await stripe.subscriptions.retrieve(subscriptionId, {
      expand: ['items.data.price.product', DISCOUNT_COUPONS],
    });
    const customerId = idOf(subscription.customer);
    const userId = customerId ? await userIdOfCustomer(db, customerId) : null;
    if (!userId || !customerId) return null;
    const item = subscription.items.data[0];
    const source = sourceOfMetadata(subscription.metadata);
    const { before, after } = await storeRow(db, subscriptions, {
      id: subscription.id,
      userId,
      provider: 'stripe',
      status: subscription.status,
      cancelAtPeriodEnd: subscription.cancel_at_period_end || subscription.cancel_at !== null,
      planName: planNameOf(subscription),
      productId: idOf(item?.price.product),
      priceId: item?.price.id ?? null,
      currentPeriodEnd: toDate(item?.current_period_end),
      trialEnd: toDate(subscription.trial_end),
      customerId,
      latestInvoiceId: idOf(subscription.latest_invoice),
      canceledAt: toDate(subscription.ended_at ?? null),
      // For the business report (src/server/features/analytics/business-report.ts).
      amount: item?.price.unit_amount ?? null,
      interval: item?.price.recurring?.interval ?? null,
      intervalCount: item?.price.recurring?.interval_count ?? null,
      discounts: discountsOf(subscription),
      sourceEndpoint: source?.endpoint ?? null,
      sourceContentId: source?.contentId ?? null,
      createdAt: toDate(subscription.created) ?? new Date(),
    });
    if (
      !before ||
      before.status !== after.status ||
      before.priceId !== after.priceId ||
      before.cancelAtPeriodEnd !== after.cancelAtPeriodEnd
    ) {
      noteAudienceChange(userId);
      await recordAudit(db, {
        actor: 'billing',
        action: 'billing.subscription',
        target: userId,
        detail: {
          subscription: after.id,
          status: after.status,
          plan: after.planName,
          cancelAtPeriodEnd: after.cancelAtPeriodEnd,
          ...(before ? { previousStatus: before.status, previousPlan: before.planName } : {}),
        },
      });
    }
    return { before, after };
  });
}

export type InvoiceLine = {
  description: string;
  amount: number;
  periodStart: string | null;
  periodEnd: string | null;
};

/** A receipt's line for an offer's discount (a negative amount). */
export const DISCOUNT_LINE = '割引（クーポン）';

/** Re-reads an invoice from the provider and stores it (a receipt once paid). */
export function syncInvoice(
  db: Db,
  invoiceId: string,
): Promise<{ before: InvoiceRow | null; after: InvoiceRow } | null> {
  return withKeyLock(`billing:${invoiceId}`, async () => {
    const { stripe } = await billingProvider(db);
    const invoice = await stripe.invoices.retrieve(invoiceId);
    const customerId = idOf(invoice.customer);
    const userId = customerId ? await userIdOfCustomer(db, customerId) : null;
    if (!userId || !customerId || !invoice.id) return null;
    const lines: InvoiceLine[] = invoice.lines.data.map((line) => ({
      description: line.description ?? '',
      amount: line.amount,
      periodStart: toDate(line.period.start)?.toISOString() ?? null,
      periodEnd: toDate(line.period.end)?.toISOString() ?? null,
    }));
    // An offer's discount is a line of its own on the receipt, so that the lines add up to the
    // total the tax was counted on (the provider's figures, after the discount).
    const discount = (invoice.total_discount_amounts ?? []).reduce((sum, d) => sum + d.amount, 0);
    if (discount > 0) {
      lines.push({
        description: DISCOUNT_LINE,
        amount: -discount,
        periodStart: lines[0]?.periodStart ?? null,
        periodEnd: lines[0]?.periodEnd ?? null,
      });
    }
    return storeRow(db, billingInvoices, {
      id: invoice.id,
      userId,
      customerId,
      subscriptionId: idOf(invoice.parent?.subscription_details?.subscription),
      number: invoice.number,
      status: invoice.status ?? 'draft',
      currency: invoice.currency,
      total: invoice.total,
      tax: (invoice.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0),
      lines,
      periodStart: toDate(invoice.lines.data[0]?.period.start),
      periodEnd: toDate(invoice.lines.data[0]?.period.end),
      paidAt: toDate(invoice.status_transitions.paid_at),
      createdAt: toDate(invoice.created) ?? new Date(),
    });
  });
}

/**
 * Stores the row the provider's object makes (inserted, or in place of the stored one) and
 * answers the row before and after, for the caller to tell what changed.
 */
async function storeRow<T extends typeof subscriptions | typeof billingInvoices>(
  db: Db,
  table: T,
  row: Omit<T['$inferInsert'], 'updatedAt'>,
): Promise<{ before: T['$inferSelect'] | null; after: T['$inferSelect'] }> {
  // Drizzle cannot type a query on a table picked by a type parameter; both tables are keyed by
  // `id` and stamped with `updatedAt`, so one of them stands for both here.
  const target = table as typeof subscriptions;
  const values = { ...row, updatedAt: new Date() } as typeof subscriptions.$inferInsert;
  const [before] = await db.select().from(target).where(eq(target.id, values.id));
  const [after] = await db
    .insert(target)
    .values(values)
    .onConflictDoUpdate({ target: target.id, set: values })
    .returning();
  if (!after) throw new Error(`billing: ${getTableName(table)} ${values.id} could not be stored`);
  return { before: before ?? null, after };
}
