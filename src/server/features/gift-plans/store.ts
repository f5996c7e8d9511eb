import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, gt, isNotNull, isNull, lte } from 'drizzle-orm';
import {
  GIFT_REDEEM_DAYS,
  GIFT_REMINDER_DAYS,
  GIFT_TOKEN_PATTERN,
  giftStateLabel,
} from '@/lib/billing/gift-plans';
import type { PlanKey } from '@/lib/billing/plans';
import type { PurchaseState } from '@/lib/billing/purchase';
import type { Db } from '@/server/platform/db/client';
import { planGifts, purchases, userPublicProfiles } from '@/server/platform/db/schema';

/**
 * Every read and write of `plan_gifts` (docs/decisions/054-gift-subscriptions.md). A gift moves
 * forward by conditional updates only — delivered once, redeemed once, reminded once, revoked
 * once — so two rounds of the runner or two clicks on a link cannot do a step twice. Its
 * payment's state is the ledger's (`purchases`), read with it.
 */

const DAY_MS = 86_400_000;

export type PlanGift = typeof planGifts.$inferSelect;
export type GiftWithPurchase = PlanGift & {
  state: PurchaseState;
  giverId: string | null;
  message: string | null;
  title: string;
  amount: number;
};

const WITH_PURCHASE = {
  gift: planGifts,
  state: purchases.state,
  giverId: purchases.userId,
  message: purchases.message,
  title: purchases.title,
  amount: purchases.amount,
};

const flat = (row: {
  gift: PlanGift;
  state: PurchaseState;
  giverId: string | null;
  message: string | null;
  title: string;
  amount: number;
}): GiftWithPurchase => ({
  ...row.gift,
  state: row.state,
  giverId: row.giverId,
  message: row.message,
  title: row.title,
  amount: row.amount,
});

/** A new link's token (32 random bytes) and the hash that is all the database keeps of it. */
export function newGiftToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashGiftToken(token) };
}

export const hashGiftToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function insertPlanGift(
  db: Db,
  row: {
    purchaseId: string;
    planKey: PlanKey;
    months: number;
    recipientEmail: string;
    deliverAt: Date;
  },
): Promise<void> {
  await db.insert(planGifts).values(row);
}

export async function planGiftOf(db: Db, purchaseId: string): Promise<GiftWithPurchase | null> {
  const [row] = await db
    .select(WITH_PURCHASE)
    .from(planGifts)
    .innerJoin(purchases, eq(purchases.id, planGifts.purchaseId))
    .where(eq(planGifts.purchaseId, purchaseId));
  return row ? flat(row) : null;
}

/** The gift a link names; null for anything that is not a token made here. */
export async function giftByToken(db: Db, token: string): Promise<GiftWithPurchase | null> {
  if (!GIFT_TOKEN_PATTERN.test(token)) return null;
  const [row] = await db
    .select(WITH_PURCHASE)
    .from(planGifts)
    .innerJoin(purchases, eq(purchases.id, planGifts.purchaseId))
    .where(eq(planGifts.tokenHash, hashGiftToken(token)));
  return row ? flat(row) : null;
}

/** Whether a delivered link can still be redeemed by its date (GIFT_REDEEM_DAYS). */
export const redeemableUntil = (gift: Pick<PlanGift, 'deliveredAt'>) =>
  gift.deliveredAt ? new Date(gift.deliveredAt.getTime() + GIFT_REDEEM_DAYS * DAY_MS) : null;

/** Paid gifts whose delivery time has come and that have not been sent. */
export async function dueDeliveries(db: Db, now: Date): Promise<GiftWithPurchase[]> {
  const rows = await db
    .select(WITH_PURCHASE)
    .from(planGifts)
    .innerJoin(purchases, eq(purchases.id, planGifts.purchaseId))
    .where(
      and(
        isNull(planGifts.deliveredAt),
        lte(planGifts.deliverAt, now),
        eq(purchases.state, 'paid'),
      ),
    )
    .orderBy(asc(planGifts.deliverAt))
    .limit(50);
  return rows.map(flat);
}

/** Claims a gift's delivery with its new token's hash; false when another round claimed it. */
export async function claimDelivery(db: Db, purchaseId: string, hash: string, at: Date) {
  const rows = await db
    .update(planGifts)
    .set({ tokenHash: hash, deliveredAt: at })
    .where(and(eq(planGifts.purchaseId, purchaseId), isNull(planGifts.deliveredAt)))
    .returning({ id: planGifts.purchaseId });
  return rows.length === 1;
}

/** A delivery whose mail could not be sent: given back, so the next round tries again. */
export async function releaseDelivery(db: Db, purchaseId: string): Promise<void> {
  await db
    .update(planGifts)
    .set({ tokenHash: null, deliveredAt: null })
    .where(and(eq(planGifts.purchaseId, purchaseId), isNull(planGifts.redeemedAt)));
}

/** Marks a gift redeemed with what it granted; false when it already was. */
export async function markRedeemed(
  db: Db,
  purchaseId: string,
  grant: {
    userId: string;
    kind: 'period' | 'extension';
    subscriptionId: string;
    start: Date;
    end: Date;
    at: Date;
  },
): Promise<boolean> {
  const rows = await db
    .update(planGifts)
    .set({
      redeemedAt: grant.at,
      redeemedBy: grant.userId,
      grantKind: grant.kind,
      grantSubscriptionId: grant.subscriptionId,
      grantStart: grant.start,
      grantEnd: grant.end,
    })
    .where(and(eq(planGifts.purchaseId, purchaseId), isNull(planGifts.redeemedAt)))
    .returning({ id: planGifts.purchaseId });
  return rows.length === 1;
}

/** A refunded gift's grant ended; false when it already was. */
export async function markRevoked(db: Db, purchaseId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(planGifts)
    .set({ revokedAt: at })
    .where(and(eq(planGifts.purchaseId, purchaseId), isNull(planGifts.revokedAt)))
    .returning({ id: planGifts.purchaseId });
  return rows.length === 1;
}

/** Gift periods (not extensions of a paying plan) ending within the reminder's lead. */
export async function dueReminders(db: Db, now: Date): Promise<GiftWithPurchase[]> {
  const rows = await db
    .select(WITH_PURCHASE)
    .from(planGifts)
    .innerJoin(purchases, eq(purchases.id, planGifts.purchaseId))
    .where(
      and(
        isNull(planGifts.remindedAt),
        isNull(planGifts.revokedAt),
        eq(planGifts.grantKind, 'period'),
        isNotNull(planGifts.redeemedBy),
        gt(planGifts.grantEnd, now),
        lte(planGifts.grantEnd, new Date(now.getTime() + GIFT_REMINDER_DAYS * DAY_MS)),
        eq(purchases.state, 'paid'),
      ),
    )
    .limit(50);
  return rows.map(flat);
}

export async function claimReminder(db: Db, purchaseId: string, at: Date): Promise<boolean> {
  const rows = await db
    .update(planGifts)
    .set({ remindedAt: at })
    .where(and(eq(planGifts.purchaseId, purchaseId), isNull(planGifts.remindedAt)))
    .returning({ id: planGifts.purchaseId });
  return rows.length === 1;
}

/** The latest end of the reader's live gift periods (a new one starts after it), if any. */
export async function lastGiftEndOf(db: Db, userId: string, now: Date): Promise<Date | null> {
  const [row] = await db
    .select({ end: planGifts.grantEnd })
    .from(planGifts)
    .where(
      and(
        eq(planGifts.redeemedBy, userId),
        eq(planGifts.grantKind, 'period'),
        isNull(planGifts.revokedAt),
        gt(planGifts.grantEnd, now),
      ),
    )
    .orderBy(desc(planGifts.grantEnd))
    .limit(1);
  return row?.end ?? null;
}

export type SentGift = {
  purchaseId: string;
  recipientEmail: string;
  months: number;
  amount: number;
  deliverAt: Date;
  createdAt: Date;
  label: string;
};

/** The gifts a reader has given, newest first, with where each stands (the account page). */
export async function listGiftsSentBy(db: Db, userId: string): Promise<SentGift[]> {
  const rows = await db
    .select(WITH_PURCHASE)
    .from(planGifts)
    .innerJoin(purchases, eq(purchases.id, planGifts.purchaseId))
    .where(and(eq(purchases.userId, userId), isNotNull(purchases.sessionId)))
    .orderBy(desc(planGifts.createdAt))
    .limit(100);
  return rows.map(flat).map((gift) => ({
    purchaseId: gift.purchaseId,
    recipientEmail: gift.recipientEmail,
    months: gift.months,
    amount: gift.amount,
    deliverAt: gift.deliverAt,
    createdAt: gift.createdAt,
    label: giftStateLabel(gift),
  }));
}

/** The giver's name as the recipient reads it (their public display name). */
export async function giverNameOf(db: Db, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const [row] = await db
    .select({ name: userPublicProfiles.displayName })
    .from(userPublicProfiles)
    .where(eq(userPublicProfiles.userId, userId));
  return row?.name ?? null;
}

/** Whether a paying plan's trial that ends then is a gift's months (its mail says so). */
export async function endsGiftExtension(
  db: Db,
  subscriptionId: string,
  end: Date,
): Promise<boolean> {
  const rows = await db
    .select({ id: planGifts.purchaseId })
    .from(planGifts)
    .where(
      and(
        eq(planGifts.grantSubscriptionId, subscriptionId),
        eq(planGifts.grantKind, 'extension'),
        eq(planGifts.grantEnd, end),
        isNull(planGifts.revokedAt),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
