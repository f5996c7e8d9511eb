import 'server-only';
import { and, count, eq } from 'drizzle-orm';
import { japanMonthKey } from '@/lib/metered/meter';
import type { Db } from '@/server/platform/db/client';
import { meteredReads, user } from '@/server/platform/db/schema';

/**
 * The meter (docs/decisions/055-metered-wall.md): whether a free member's members' post opens as
 * a metered read. Decided in one transaction holding the reader's `user` row, as the gift
 * allowance is, so ten opens at once are decided one after another on every instance: a row for
 * this post this month opens it (a re-read is free); else, only when `consume` (a page load the
 * front server counted) and the month's reads are under the allowance, a new row opens it.
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
  const decide = async (tx: Db): Promise<Metered> => {
    const [read] = await tx
      .select({ month: meteredReads.month })
      .from(meteredReads)
      .where(thisPost);
    const [row] = await tx.select({ n: count() }).from(meteredReads).where(mine);
    const used = row?.n ?? 0;
    if (read) return { opened: true, left: Math.max(0, allowance - used) };
    if (!consume || used >= allowance)
      return { opened: false, left: Math.max(0, allowance - used) };
    await tx.insert(meteredReads).values({
      userId,
      month,
      contentId: post.id,
      contentCreatedAt: createdAt,
      readAt: now,
    });
    return { opened: true, left: allowance - used - 1 };
  };
  // Only a request that may insert takes the lock; a look (a prefetch, a re-read) reads.
  if (!consume) return decide(db);
  return db.transaction(async (tx) => {
    await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for('update');
    return decide(tx);
  });
}
