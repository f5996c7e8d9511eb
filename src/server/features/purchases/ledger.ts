import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { PurchaseMethod, PurchaseState } from '@/lib/billing/purchase';
import type { Db } from '@/server/platform/db/client';
import { purchases } from '@/server/platform/db/schema';

/**
 * The purchases ledger (docs/decisions/053-one-time-payments.md): every read and write of the
 * `purchases` table, with explicit columns. A row moves only forward: `pending` → `paid`,
 * `expired` or `failed`; `paid` → `refunded`; each move is one conditional update, so two
 * deliveries of events cannot move a row twice.
 */

const COLUMNS = {
  id: purchases.id,
  userId: purchases.userId,
  kind: purchases.kind,
  endpoint: purchases.endpoint,
  contentId: purchases.contentId,
  contentCreatedAt: purchases.contentCreatedAt,
  title: purchases.title,
  message: purchases.message,
  amount: purchases.amount,
  tax: purchases.tax,
  method: purchases.method,
  customerId: purchases.customerId,
  sessionId: purchases.sessionId,
  paymentIntentId: purchases.paymentIntentId,
  state: purchases.state,
  voucherUrl: purchases.voucherUrl,
  voucherExpiresAt: purchases.voucherExpiresAt,
  createdAt: purchases.createdAt,
  paidAt: purchases.paidAt,
  expiredAt: purchases.expiredAt,
  refundedAt: purchases.refundedAt,
};

export type Purchase = {
  id: string;
  userId: string | null;
  kind: 'post' | 'tip' | 'gift-plan';
  endpoint: string | null;
  contentId: string | null;
  contentCreatedAt: Date | null;
  title: string;
  message: string | null;
  amount: number;
  tax: number;
  method: PurchaseMethod;
  customerId: string;
  sessionId: string | null;
  paymentIntentId: string | null;
  state: PurchaseState;
  voucherUrl: string | null;
  voucherExpiresAt: Date | null;
  createdAt: Date;
  paidAt: Date | null;
  expiredAt: Date | null;
  refundedAt: Date | null;
};

/** A post as a purchase names it: by id, bound to its creation (a post re-made is another). */
export type PurchasedPost = { id: string; createdAt: string };

const LIVE: PurchaseState[] = ['pending', 'paid'];

const postIs = (post: PurchasedPost) =>
  and(
    eq(purchases.kind, 'post'),
    eq(purchases.endpoint, 'posts'),
    eq(purchases.contentId, post.id),
    eq(purchases.contentCreatedAt, new Date(post.createdAt)),
  );

export const newPurchaseId = () => `pur_${randomUUID().replaceAll('-', '')}`;

/**
 * Writes a pending purchase of a post; null when the reader already has a live one (waiting or
 * paid) of it, also when two checkouts race (the unique index decides).
 */
export async function insertPendingPurchase(
  db: Db,
  row: {
    id: string;
    userId: string;
    post: PurchasedPost & { title: string };
    amount: number;
    tax: number;
    method: PurchaseMethod;
    customerId: string;
  },
): Promise<Purchase | null> {
  const [inserted] = await db
    .insert(purchases)
    .values({
      id: row.id,
      userId: row.userId,
      kind: 'post',
      endpoint: 'posts',
      contentId: row.post.id,
      contentCreatedAt: new Date(row.post.createdAt),
      title: row.post.title,
      amount: row.amount,
      tax: row.tax,
      method: row.method,
      customerId: row.customerId,
      state: 'pending',
    })
    .onConflictDoNothing()
    .returning(COLUMNS);
  return inserted ?? null;
}

export async function setPurchaseSession(db: Db, id: string, sessionId: string): Promise<void> {
  await db.update(purchases).set({ sessionId }).where(eq(purchases.id, id));
}

export async function purchaseById(db: Db, id: string): Promise<Purchase | null> {
  const [row] = await db.select(COLUMNS).from(purchases).where(eq(purchases.id, id));
  return row ?? null;
}

/** The reader's own purchase by its id (the success page's question); null for anyone else's. */
export async function purchaseOf(db: Db, userId: string, id: string): Promise<Purchase | null> {
  if (!/^pur_[0-9a-f]{32}$/.test(id)) return null;
  const [row] = await db
    .select(COLUMNS)
    .from(purchases)
    .where(and(eq(purchases.id, id), eq(purchases.userId, userId)));
  return row ?? null;
}

export async function purchaseByPaymentIntent(
  db: Db,
  paymentIntentId: string,
): Promise<Purchase | null> {
  const [row] = await db
    .select(COLUMNS)
    .from(purchases)
    .where(eq(purchases.paymentIntentId, paymentIntentId));
  return row ?? null;
}

/** The reader's live purchase (waiting or paid) of this post, if any. */
export async function livePostPurchase(
  db: Db,
  userId: string,
  post: PurchasedPost,
): Promise<Purchase | null> {
  const [row] = await db
    .select(COLUMNS)
    .from(purchases)
    .where(and(eq(purchases.userId, userId), postIs(post), inArray(purchases.state, LIVE)));
  return row ?? null;
}

/** Whether the reader has bought this post and it is paid (not refunded): the access input. */
export async function ownsPost(db: Db, userId: string, post: PurchasedPost): Promise<boolean> {
  if (Number.isNaN(new Date(post.createdAt).getTime())) return false;
  const rows = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.userId, userId), postIs(post), eq(purchases.state, 'paid')))
    .limit(1);
  return rows.length > 0;
}

/** Whether the reader has any paid purchase (their post pages are rendered for them alone). */
export async function hasPaidPurchase(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(and(eq(purchases.userId, userId), eq(purchases.state, 'paid')))
    .limit(1);
  return rows.length > 0;
}

/** The reader's purchases, newest first, except attempts that never reached a payment page. */
export async function listPurchasesOf(db: Db, userId: string): Promise<Purchase[]> {
  const rows = await db
    .select(COLUMNS)
    .from(purchases)
    .where(
      and(
        eq(purchases.userId, userId),
        inArray(purchases.state, ['pending', 'paid', 'expired', 'refunded']),
      ),
    )
    .orderBy(desc(purchases.createdAt))
    .limit(200);
  return rows;
}

/** One conditional move of a row's state; the moved row, or null when it was not in `from`. */
async function move(
  db: Db,
  id: string,
  from: PurchaseState,
  set: Partial<typeof purchases.$inferInsert>,
): Promise<Purchase | null> {
  const [row] = await db
    .update(purchases)
    .set(set)
    .where(and(eq(purchases.id, id), eq(purchases.state, from)))
    .returning(COLUMNS);
  return row ?? null;
}

export const markPurchasePaid = (db: Db, id: string, paymentIntentId: string | null, at: Date) =>
  move(db, id, 'pending', {
    state: 'paid',
    paidAt: at,
    ...(paymentIntentId ? { paymentIntentId } : {}),
  });

export const markPurchaseExpired = (db: Db, id: string, at: Date) =>
  move(db, id, 'pending', { state: 'expired', expiredAt: at });

export const markPurchaseFailed = (db: Db, id: string, at: Date) =>
  move(db, id, 'pending', { state: 'failed', expiredAt: at });

export const markPurchaseRefunded = (db: Db, id: string, at: Date) =>
  move(db, id, 'paid', { state: 'refunded', refundedAt: at });

/** A konbini voucher issued for a waiting purchase: its page and deadline, kept for the reader. */
export const notePurchaseVoucher = (
  db: Db,
  id: string,
  voucher: { paymentIntentId: string; url: string; expiresAt: Date },
) =>
  move(db, id, 'pending', {
    paymentIntentId: voucher.paymentIntentId,
    voucherUrl: voucher.url,
    voucherExpiresAt: voucher.expiresAt,
  });
