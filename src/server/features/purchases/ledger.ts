import 'server-only';
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PurchaseMethod, PurchaseState } from '@/lib/billing/purchase';
import type { Db } from '@/server/platform/db/client';
import { purchases, userPublicProfiles } from '@/server/platform/db/schema';

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
 * Writes a pending purchase of a post, or a tip for one (`kind: 'tip'`, with the payer's
 * message); null when the reader already has a live purchase (waiting or paid) of the post,
 * also when two checkouts race (the unique index decides; it holds for purchases only, so a
 * reader may tip a post as often as they like).
 */
export async function insertPendingPurchase(
  db: Db,
  row: {
    id: string;
    userId: string;
    kind?: 'post' | 'tip';
    post: PurchasedPost & { title: string };
    message?: string | null;
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
      kind: row.kind ?? 'post',
      endpoint: 'posts',
      contentId: row.post.id,
      contentCreatedAt: new Date(row.post.createdAt),
      title: row.post.title,
      message: row.message ?? null,
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

/**
 * Whether the reader has any paid purchase of a post (their post pages are rendered for them
 * alone); a tip opens nothing, so it does not count.
 */
export async function hasPaidPurchase(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(
      and(eq(purchases.userId, userId), eq(purchases.kind, 'post'), eq(purchases.state, 'paid')),
    )
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

/** A paid tip as the staff's list shows it: who (a public display name, if any), for what, how. */
export type PaidTip = Pick<
  Purchase,
  'id' | 'contentId' | 'title' | 'amount' | 'message' | 'method' | 'paidAt'
> & { payerName: string | null };

/** Paid tips per post: how many, the sum, and the post's title at its latest tip. */
export type TipTotal = { contentId: string; title: string; count: number; amount: number };

const paidTips = (contentId?: string) =>
  and(
    eq(purchases.kind, 'tip'),
    eq(purchases.state, 'paid'),
    contentId ? eq(purchases.contentId, contentId) : undefined,
  );

/**
 * The paid tips (refunded ones are not), newest first, of one post or all, with the payer's
 * public display name (null for a deleted account: the row stays, anonymised), and the totals
 * per post, largest first.
 */
export async function listPaidTips(
  db: Db,
  options: { contentId?: string; limit?: number } = {},
): Promise<{ tips: PaidTip[]; totals: TipTotal[] }> {
  const [tips, totals] = await Promise.all([
    db
      .select({
        id: purchases.id,
        contentId: purchases.contentId,
        title: purchases.title,
        amount: purchases.amount,
        message: purchases.message,
        method: purchases.method,
        paidAt: purchases.paidAt,
        payerName: userPublicProfiles.displayName,
      })
      .from(purchases)
      .leftJoin(userPublicProfiles, eq(userPublicProfiles.userId, purchases.userId))
      .where(paidTips(options.contentId))
      .orderBy(desc(purchases.paidAt))
      .limit(options.limit ?? 200),
    db
      .select({
        contentId: sql<string>`${purchases.contentId}`,
        title: sql<string>`(array_agg(${purchases.title} order by ${purchases.paidAt} desc))[1]`,
        count: sql<number>`count(*)::int`,
        amount: sql<number>`sum(${purchases.amount})::int`,
      })
      .from(purchases)
      .where(paidTips(options.contentId))
      .groupBy(purchases.contentId)
      .orderBy(desc(sql`sum(${purchases.amount})`)),
  ]);
  return { tips, totals };
}
