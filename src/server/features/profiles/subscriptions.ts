import 'server-only';
import { randomBytes } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { SUBSCRIPTION_STATUSES, type SubscriptionRecord } from '@/lib/auth-state';
import type { Db } from '@/server/platform/db/client';
import { noteAudienceChange } from '@/server/features/audience';
import { subscriptions } from '@/server/platform/db/schema';

/**
 * Subscription records under the public profile (SPEC §3), in the provider's shape for the auth
 * state (`items[0].price.product.name`). The billing issue fills them from the payment
 * provider; staff grant complimentary plans with the admin CLI. Every change is noted as an
 * audience change, so the page cache stops trusting the reader's audience cookie at once.
 */

type Row = typeof subscriptions.$inferSelect;

function toRecord(row: Row, now = new Date()): SubscriptionRecord {
  const known = (SUBSCRIPTION_STATUSES as readonly string[]).includes(row.status)
    ? (row.status as SubscriptionRecord['status'])
    : 'incomplete';
  // A complimentary or gift plan ends with its term (a provider's plans end by its webhooks).
  const expired =
    row.provider !== 'stripe' && row.currentPeriodEnd !== null && row.currentPeriodEnd <= now;
  const status = expired && (known === 'active' || known === 'trialing') ? 'canceled' : known;
  return {
    id: row.id,
    status,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    items: [
      {
        price: {
          ...(row.priceId ? { id: row.priceId } : {}),
          product: { ...(row.productId ? { id: row.productId } : {}), name: row.planName },
        },
      },
    ],
    current_period_end: row.currentPeriodEnd?.toISOString() ?? null,
    trial_end: row.trialEnd?.toISOString() ?? null,
  };
}

/** Newest first, as the provider lists them. */
export async function listSubscriptions(db: Db, userId: string): Promise<SubscriptionRecord[]> {
  const rows = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  const now = new Date();
  return rows.map((row) => toRecord(row, now));
}

/** listSubscriptions of many users in one query (the newsletter reads a batch's readers). */
export async function listSubscriptionsOf(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, SubscriptionRecord[]>> {
  const out = new Map<string, SubscriptionRecord[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return out;
  const rows = await db
    .select()
    .from(subscriptions)
    .where(inArray(subscriptions.userId, [...userIds]))
    .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id));
  const now = new Date();
  for (const row of rows) if (row.userId) out.get(row.userId)?.push(toRecord(row, now));
  return out;
}

export async function grantComplimentary(
  db: Db,
  input: { userId: string; planName: string; status: 'active' | 'trialing'; days?: number },
): Promise<SubscriptionRecord> {
  const now = new Date();
  const end = input.days ? new Date(now.getTime() + input.days * 86_400_000) : null;
  const [row] = await db
    .insert(subscriptions)
    .values({
      id: `comp_${randomBytes(12).toString('base64url')}`,
      userId: input.userId,
      provider: 'complimentary',
      status: input.status,
      planName: input.planName,
      currentPeriodEnd: end,
      trialEnd: input.status === 'trialing' ? end : null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  noteAudienceChange(input.userId);
  return toRecord(row!);
}

/**
 * A gift's period (docs/decisions/054-gift-subscriptions.md): a plan of provider `gift` that
 * opens what the plan opens until `end` and never renews (cancel_at_period_end).
 */
export async function grantGiftPeriod(
  db: Db,
  input: { userId: string; planName: string; priceId: string | null; end: Date },
): Promise<string> {
  const now = new Date();
  const id = `gift_${randomBytes(12).toString('base64url')}`;
  await db.insert(subscriptions).values({
    id,
    userId: input.userId,
    provider: 'gift',
    status: 'active',
    cancelAtPeriodEnd: true,
    planName: input.planName,
    priceId: input.priceId,
    currentPeriodEnd: input.end,
    createdAt: now,
    updatedAt: now,
  });
  noteAudienceChange(input.userId);
  return id;
}

/** Ends a gift's period now (a refunded gift). */
export async function endGiftPeriod(db: Db, id: string): Promise<void> {
  const now = new Date();
  const [row] = await db
    .update(subscriptions)
    .set({ status: 'canceled', canceledAt: now, currentPeriodEnd: now, updatedAt: now })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.provider, 'gift')))
    .returning({ userId: subscriptions.userId });
  if (row?.userId) noteAudienceChange(row.userId);
}

/** Cancels the user's live complimentary plans; answers how many. */
export async function revokeComplimentary(db: Db, userId: string): Promise<number> {
  const now = new Date();
  const rows = await db
    .update(subscriptions)
    .set({ status: 'canceled', canceledAt: now, updatedAt: now })
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.provider, 'complimentary'),
        inArray(subscriptions.status, ['active', 'trialing']),
      ),
    )
    .returning({ id: subscriptions.id });
  noteAudienceChange(userId);
  return rows.length;
}

/**
 * Cancels every live plan of a user who leaves (account deletion). Complimentary plans end
 * here; a provider's plan must also be cancelled with the provider, which the billing module
 * does before calling this.
 */
export async function cancelLiveSubscriptions(db: Db, userId: string): Promise<number> {
  const now = new Date();
  const rows = await db
    .update(subscriptions)
    .set({ status: 'canceled', canceledAt: now, cancelAtPeriodEnd: false, updatedAt: now })
    .where(
      and(
        eq(subscriptions.userId, userId),
        inArray(subscriptions.status, ['active', 'trialing', 'past_due', 'unpaid', 'paused']),
      ),
    )
    .returning({ id: subscriptions.id });
  noteAudienceChange(userId);
  return rows.length;
}
