import 'server-only';
import { and, count, eq, sql } from 'drizzle-orm';
import { japanMonthKey } from '@/lib/metered/meter';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/platform/db/client';
import { meteredReads, user } from '@/server/platform/db/schema';

/**
 * The meter (docs/decisions/055-metered-wall.md): whether a free member's members' post opens as
 * a metered read. Decided in one transaction holding the reader's `user` row, as the gift
 * allowance is, so ten opens at once are decided one after another on every instance: a row for
 * this post this month opens it (a re-read is free); else, only when `consume` (a page load the
 * front server counted) and the month's reads are under the allowance, a new row opens it. Only
 * that insert takes the lock: a re-read or a used-up month is one query (the count is one small
 * write, decision 055's amendment).
 */

/** The post a read is of: its id and the creation time no write changes. */
export type MeteredPost = { id: string; createdAt: string };

/** The meter's answer: opened or not, and the reads left this month after this one. */
export type Metered = { opened: boolean; left: number };

/**
 * What this process has seen in the database of a reader's month: the posts read and how many.
 * Within a month rows are only added, so both facts stay true on every instance: a post seen
 * read opens again, and a month seen used up stays closed, without asking again. Only what may
 * change (a post not yet read with reads left) is asked of the database each time. The count
 * shown may lag another instance's new read (it is never what opens a post).
 */
type SeenMonth = { month: string; used: number; read: Set<string> };
const SEEN_READERS = 10_000;
const seenMonths = singleton('metered-seen', () => new Map<string, SeenMonth>());

function seenMonth(userId: string, month: string): SeenMonth | undefined {
  const seen = seenMonths.get(userId);
  return seen?.month === month ? seen : undefined;
}

function noteSeen(userId: string, month: string, used: number, post: string | null): void {
  let seen = seenMonth(userId, month);
  if (!seen) {
    seen = { month, used: 0, read: new Set() };
    seenMonths.delete(userId);
    // Oldest first out.
    for (const oldest of seenMonths.keys()) {
      if (seenMonths.size < SEEN_READERS) break;
      seenMonths.delete(oldest);
    }
    seenMonths.set(userId, seen);
  }
  seen.used = Math.max(seen.used, used);
  if (post !== null) seen.read.add(post);
}

/** Forgets what this process has seen (tests that remove rows). */
export function forgetMeteredReads(): void {
  seenMonths.clear();
}

export async function meterRead(
  db: Db,
  userId: string,
  post: MeteredPost,
  options: { now: Date; allowance: number; consume: boolean },
): Promise<Metered> {
  const { now, allowance, consume } = options;
  const createdAt = new Date(post.createdAt);
  if (allowance <= 0 || Number.isNaN(createdAt.getTime())) return { opened: false, left: 0 };
  const month = japanMonthKey(now);
  const left = (used: number) => Math.max(0, allowance - used);
  const key = `${post.id} ${createdAt.toISOString()}`;
  const known = seenMonth(userId, month);
  if (known?.read.has(key)) return { opened: true, left: left(known.used) };
  if (known && known.used >= allowance) return { opened: false, left: 0 };
  // What follows asks the database (most page loads of a month were answered above).
  const mine = and(eq(meteredReads.userId, userId), eq(meteredReads.month, month));
  const thisPost = and(
    mine,
    eq(meteredReads.contentId, post.id),
    eq(meteredReads.contentCreatedAt, createdAt),
  );
  /** This reader's reads this month, and whether this very post is among them: one query. */
  const look = async (tx: Db) => {
    const [row] = await tx
      .select({ used: count(), read: sql<boolean>`coalesce(bool_or(${thisPost}), false)` })
      .from(meteredReads)
      .where(mine);
    return { used: Number(row?.used ?? 0), read: row?.read === true };
  };
  // A re-read, a used-up month or a request that may not spend: the rows say so without a lock
  // (within a month rows are only added, so neither answer can be overtaken).
  const seen = await look(db);
  noteSeen(userId, month, seen.used, seen.read ? key : null);
  if (seen.read) return { opened: true, left: left(seen.used) };
  if (!consume || seen.used >= allowance) return { opened: false, left: left(seen.used) };
  // A new read: decided again under the reader's lock, so ten at once never pass the allowance.
  const decided = await db.transaction(async (tx): Promise<Metered & { used?: number }> => {
    await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for('update');
    const held = await look(tx);
    if (held.read) return { opened: true, left: left(held.used) };
    if (held.used >= allowance) return { opened: false, left: 0 };
    await tx.insert(meteredReads).values({
      userId,
      month,
      contentId: post.id,
      contentCreatedAt: createdAt,
      readAt: now,
    });
    return { opened: true, left: left(held.used + 1), used: held.used + 1 };
  });
  // Noted once the insert is committed (a transaction that failed notes nothing).
  if (decided.used !== undefined) noteSeen(userId, month, decided.used, key);
  return { opened: decided.opened, left: decided.left };
}
