import 'server-only';
import { and, eq, lt, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { billingNotifications, userPrivateProfiles } from '@/server/platform/db/schema';
import { planByPrice } from './catalogue';
import { customerIdsOf } from './customers';
import { notifyDuplicateReversed } from './notifications';
import { billingProvider } from './provider';
import { syncSubscription } from './records';

/**
 * One paid plan per reader (docs/decisions/021-one-plan-per-reader.md). The checkout refuses a
 * reader who has a plan, but two checkouts opened before either was paid can both complete. When
 * the provider holds two or more charging subscriptions for one reader, the oldest is kept and
 * every newer one is reversed at once: its payments refunded, then it is cancelled, recorded
 * and the reader told. The decision reads the provider (not our records, which may lag behind
 * the events), and each reversal is claimed once in the database (billing_notifications,
 * under the reader's row lock), so that any number of deliveries and instances reverse each
 * duplicate exactly once.
 */

/** Statuses in which a subscription charges (or will charge) the reader. */
export const CHARGING_STATUSES: readonly string[] = [
  'active',
  'trialing',
  'past_due',
  'unpaid',
  'paused',
];

/** A reversal claimed longer ago than this, its subscription still charging, was abandoned. */
const STALE_CLAIM_MS = 5 * 60_000;

export const duplicateClaimKey = (subscriptionId: string) => `duplicate:${subscriptionId}`;

export type Reversal = {
  subscriptionId: string;
  keptSubscriptionId: string;
  refunded: number;
};

/** The customer's charging subscriptions at the provider, oldest first (ties: by id). */
async function chargingSubscriptions(stripe: Stripe, customerId: string) {
  const all = await stripe.subscriptions
    .list({ customer: customerId, limit: 100 })
    .autoPagingToArray({ limit: 1000 });
  return all
    .filter((subscription) => CHARGING_STATUSES.includes(subscription.status))
    .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Takes the reversal of one subscription for this caller: true for exactly one of any number
 * of concurrent callers (the claim's primary key), under the reader's row lock so that one
 * reader's reversals are decided one after another across instances. A claim left by a process
 * that died midway is taken over after STALE_CLAIM_MS, on the provider's next retry.
 */
async function claimReversal(db: Db, userId: string, subscriptionId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx
      .select({ userId: userPrivateProfiles.userId })
      .from(userPrivateProfiles)
      .where(eq(userPrivateProfiles.userId, userId))
      .for('update');
    const key = duplicateClaimKey(subscriptionId);
    const rows = await tx
      .insert(billingNotifications)
      .values({ key })
      .onConflictDoNothing()
      .returning({ key: billingNotifications.key });
    if (rows.length === 1) return true;
    // Claimed before, and still charging (the caller listed it so): the claimant died or gave
    // up midway. Once the claim is old enough not to be a reversal still under way, take it.
    const takenOver = await tx
      .update(billingNotifications)
      .set({ sentAt: sql`now()` })
      .where(
        and(
          eq(billingNotifications.key, key),
          lt(
            billingNotifications.sentAt,
            sql`now() - make_interval(secs => ${STALE_CLAIM_MS / 1000})`,
          ),
        ),
      )
      .returning({ key: billingNotifications.key });
    return takenOver.length === 1;
  });
}

const isStripeError = (error: unknown, code: string) =>
  error instanceof Stripe.errors.StripeError && error.code === code;

/** Refunds every payment made on the subscription's invoices; answers the amount refunded. */
async function refundPayments(stripe: Stripe, subscriptionId: string): Promise<number> {
  let refunded = 0;
  const invoices = await stripe.invoices
    .list({ subscription: subscriptionId, status: 'paid', limit: 100 })
    .autoPagingToArray({ limit: 1000 });
  for (const invoice of invoices) {
    if (!invoice.id || invoice.amount_paid <= 0) continue;
    const payments = await stripe.invoicePayments.list({ invoice: invoice.id, limit: 100 });
    for (const payment of payments.data) {
      const paymentIntent = payment.payment.payment_intent;
      const charge = payment.payment.charge;
      const target = paymentIntent
        ? { payment_intent: typeof paymentIntent === 'string' ? paymentIntent : paymentIntent.id }
        : charge
          ? { charge: typeof charge === 'string' ? charge : charge.id }
          : null;
      if (!target) continue;
      try {
        const refund = await stripe.refunds.create(
          {
            ...target,
            reason: 'duplicate',
            metadata: { subscription: subscriptionId, invoice: invoice.id },
          },
          { idempotencyKey: `duplicate-refund-${payment.id}` },
        );
        refunded += refund.amount;
      } catch (error) {
        // Refunded by an earlier attempt of this reversal whose cancellation then failed.
        if (!isStripeError(error, 'charge_already_refunded')) throw error;
      }
    }
  }
  return refunded;
}

async function cancelNow(stripe: Stripe, subscriptionId: string): Promise<void> {
  const current = await stripe.subscriptions.retrieve(subscriptionId);
  if (current.status === 'canceled' || current.status === 'incomplete_expired') return;
  await stripe.subscriptions.cancel(
    subscriptionId,
    {},
    { idempotencyKey: `duplicate-cancel-${subscriptionId}` },
  );
}

/** Whether anything charges at this customer (the provider's word, not our records). */
export async function chargesAt(db: Db, customerId: string): Promise<boolean> {
  const { stripe } = await billingProvider(db);
  return (await chargingSubscriptions(stripe, customerId)).length > 0;
}

/**
 * Keeps the reader's oldest charging subscription and reverses the newer ones (see above),
 * across every customer of the reader (`customerId`, their own, and those of the guest
 * checkouts they claimed: customers.ts). Answers the reversals this call made. Throws (and
 * gives the claim back, so that the provider's retry of the event tries again) when the
 * provider refuses a step.
 */
export async function keepOnePlan(db: Db, userId: string, customerId: string): Promise<Reversal[]> {
  const { stripe } = await billingProvider(db);
  const customers = new Set([customerId, ...(await customerIdsOf(db, userId))]);
  const charging = (
    await Promise.all([...customers].map((customer) => chargingSubscriptions(stripe, customer)))
  )
    .flat()
    .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const [kept, ...newer] = charging;
  if (!kept) return [];
  const reversals: Reversal[] = [];
  for (const duplicate of newer) {
    if (!(await claimReversal(db, userId, duplicate.id))) continue;
    let refunded: number;
    try {
      // Refund first: a cancelled subscription is no longer seen here, so a reversal that
      // failed after cancelling could not be taken up again by a retry.
      refunded = await refundPayments(stripe, duplicate.id);
      await cancelNow(stripe, duplicate.id);
    } catch (error) {
      await db
        .delete(billingNotifications)
        .where(eq(billingNotifications.key, duplicateClaimKey(duplicate.id)));
      throw error;
    }
    const synced = await syncSubscription(db, duplicate.id);
    await recordAudit(db, {
      actor: 'billing',
      action: 'billing.subscription.duplicate-reversed',
      target: userId,
      detail: {
        subscription: duplicate.id,
        kept: kept.id,
        refunded,
        plan: synced?.after.planName ?? null,
      },
    });
    const reversal = { subscriptionId: duplicate.id, keptSubscriptionId: kept.id, refunded };
    await notifyDuplicateReversed(db, userId, reversal, {
      reversedPlan: synced?.after.planName ?? '',
      keptPlan: (await planByPrice(db, kept.items.data[0]?.price.id ?? ''))?.name ?? '',
    });
    reversals.push(reversal);
  }
  return reversals;
}

/** Whether the subscription was reversed (or is being reversed) as a reader's second plan. */
export async function wasReversedAsDuplicate(db: Db, subscriptionId: string): Promise<boolean> {
  const rows = await db
    .select({ key: billingNotifications.key })
    .from(billingNotifications)
    .where(eq(billingNotifications.key, duplicateClaimKey(subscriptionId)))
    .limit(1);
  return rows.length > 0;
}
