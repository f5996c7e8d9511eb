import 'server-only';
import { and, eq, isNotNull, isNull } from 'drizzle-orm';
import { withKeyLock } from '@/lib/keyed-lock';
import type { Db } from '@/server/platform/db/client';
import { guestCheckouts, userPrivateProfiles } from '@/server/platform/db/schema';
import { billingProvider } from './provider';

/**
 * A reader's one customer at the provider. Its id is the private profile's stripeId (SPEC §3),
 * written once, when the customer is first made. First uses are serialised per reader here,
 * and across instances they send the same idempotency key, so the provider makes one
 * customer; the write keeps the first id.
 *
 * A checkout paid by a visitor (guest-checkout.ts) makes a customer of its own at the provider;
 * once an account claims it, that customer is the account's too: it becomes the stripeId when
 * the account has none or no plan at its own (linkGuestCustomer), and is otherwise known through
 * the claimed row, so that its subscription is recorded as the account's and one-plan.ts sees it.
 */

export type CustomerOwner = { id: string; email: string; name: string };

export async function customerIdOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ stripeId: userPrivateProfiles.stripeId })
    .from(userPrivateProfiles)
    .where(eq(userPrivateProfiles.userId, userId));
  return row?.stripeId ?? null;
}

export async function userIdOfCustomer(db: Db, customerId: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: userPrivateProfiles.userId })
    .from(userPrivateProfiles)
    .where(eq(userPrivateProfiles.stripeId, customerId));
  if (row) return row.userId;
  const [claimed] = await db
    .select({ userId: guestCheckouts.claimedBy })
    .from(guestCheckouts)
    .where(and(eq(guestCheckouts.customerId, customerId), isNotNull(guestCheckouts.claimedBy)))
    .limit(1);
  return claimed?.userId ?? null;
}

/** Every customer of the reader at the provider: the stripeId, then claimed guests' ones. */
export async function customerIdsOf(db: Db, userId: string): Promise<string[]> {
  const own = await customerIdOf(db, userId);
  const claimed = await db
    .select({ customerId: guestCheckouts.customerId })
    .from(guestCheckouts)
    .where(eq(guestCheckouts.claimedBy, userId));
  return [...new Set([...(own ? [own] : []), ...claimed.map((row) => row.customerId)])];
}

/**
 * Makes a claimed guest checkout's customer the reader's own (their stripeId, what the portal
 * and the plan's records use) when the reader has none yet, or has nothing charging at their own:
 * the plan they now hold lives at the new one. A reader with a plan charging at their own keeps
 * it; the guest's second plan is then reversed (one-plan.ts), its customer known through the
 * claimed row. Answers whether the stripeId changed.
 */
export async function linkGuestCustomer(
  db: Db,
  userId: string,
  customerId: string,
  chargingAt: (customerId: string) => Promise<boolean>,
): Promise<boolean> {
  return withKeyLock(`billing-customer:${userId}`, async () => {
    const own = await customerIdOf(db, userId);
    if (own === customerId) return false;
    if (own && (await chargingAt(own))) return false;
    const written = await db
      .update(userPrivateProfiles)
      .set({ stripeId: customerId, updatedAt: new Date() })
      .where(
        and(
          eq(userPrivateProfiles.userId, userId),
          own ? eq(userPrivateProfiles.stripeId, own) : isNull(userPrivateProfiles.stripeId),
        ),
      )
      .returning({ stripeId: userPrivateProfiles.stripeId });
    return written.length === 1;
  });
}

export function ensureCustomer(db: Db, owner: CustomerOwner): Promise<string> {
  // One at a time per reader in this process: a second caller then finds the first's id
  // (the provider answers a concurrent reuse of an idempotency key with a conflict).
  return withKeyLock(`billing-customer:${owner.id}`, () => makeCustomer(db, owner));
}

async function makeCustomer(db: Db, owner: CustomerOwner): Promise<string> {
  const existing = await customerIdOf(db, owner.id);
  if (existing) return existing;
  const { stripe, kind } = await billingProvider(db);
  // On the sandbox each reader's customer runs on a test clock of its own, so that staff can
  // move one reader's time on (renewals, trial ends, failed payments) as on Stripe test mode.
  const clock =
    kind === 'sandbox'
      ? await stripe.testHelpers.testClocks.create(
          { frozen_time: Math.floor(Date.now() / 1000), name: `reader ${owner.id}` },
          { idempotencyKey: `reader-clock-${owner.id}` },
        )
      : null;
  const customer = await stripe.customers.create(
    {
      email: owner.email,
      name: owner.name,
      metadata: { userId: owner.id },
      preferred_locales: ['ja'],
      ...(clock ? { test_clock: clock.id } : {}),
    },
    { idempotencyKey: `reader-customer-${owner.id}` },
  );
  const written = await db
    .update(userPrivateProfiles)
    .set({ stripeId: customer.id, updatedAt: new Date() })
    .where(and(eq(userPrivateProfiles.userId, owner.id), isNull(userPrivateProfiles.stripeId)))
    .returning({ stripeId: userPrivateProfiles.stripeId });
  if (written[0]?.stripeId) return written[0].stripeId;
  const winner = await customerIdOf(db, owner.id);
  if (!winner) throw new Error('billing: the reader has no private profile');
  return winner;
}
