import 'server-only';
import { and, count, eq, sql } from 'drizzle-orm';
import { japanMonthKey } from '@/lib/metered/meter';
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
  const left = (used: number) => Math.max(0, allowance - used);
  // A re-read, a used-up month or a request that may not spend: the rows say so without a lock
  // (within a month rows are only added, so neither answer can be overtaken).
  const seen = await look(db);
  if (seen.read) return { opened: true, left: left(seen.used) };
  if (!consume || seen.used >= allowance) return { opened: false, left: left(seen.used) };
  // A new read: decided again under the reader's lock, so ten at once never pass the allowance.
  return db.transaction(async (tx) => {
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
    return { opened: true, left: left(held.used + 1) };
  });
}
