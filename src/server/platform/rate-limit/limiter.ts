import 'server-only';
import { AppError } from '@/lib/errors';
import { and, eq, lt, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import type { Db } from '@/server/platform/db/client';
import { rateLimitHits } from '@/server/platform/db/schema';
import { singleton } from '@/lib/singleton';

/**
 * Fixed-window request limits counted in the database, so every app instance shares them.
 * Subjects (a client address, an e-mail address) are stored only as hashes; a client address
 * is always passed through `addressKey` (./client-address.ts) first, so every limit by address
 * groups IPv6 and reads unreadable addresses the same way. The content API's per-key limits
 * per second sit beside this file (./api-key-limit.ts): they batch their counts in memory.
 */

export type Limit = { name: string; max: number; windowMs: number };

export class RateLimitedError extends AppError {
  declare readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number) {
    super(
      `短時間に何度も試みられたため、一時的に受け付けを停止しています。${Math.max(1, Math.ceil(retryAfterSeconds / 60))} 分ほど待ってからもう一度お試しください。`,
      { status: 429, code: 'rate-limited', retryAfterSeconds },
    );
    this.name = 'RateLimitedError';
  }
}

const hashed = (subject: string) =>
  createHash('sha256').update(subject.toLowerCase()).digest('base64url').slice(0, 32);

const bucketOf = (limit: Limit, subject: string) => `${limit.name}:${hashed(subject)}`;
const windowOf = (limit: Limit, now: number) => Math.floor(now / limit.windowMs) * limit.windowMs;

const hits = singleton('rate-limit-hits', () => ({ calls: 0 }));

/** Adds one to the subject's count in the current window and answers the new count. */
export async function hit(
  db: Db,
  limit: Limit,
  subject: string,
  now = Date.now(),
): Promise<number> {
  const [row] = await db
    .insert(rateLimitHits)
    .values({ bucket: bucketOf(limit, subject), windowStart: windowOf(limit, now), count: 1 })
    .onConflictDoUpdate({
      target: [rateLimitHits.bucket, rateLimitHits.windowStart],
      set: { count: sql`${rateLimitHits.count} + 1` },
    })
    .returning({ count: rateLimitHits.count });
  // Old windows are dropped now and then, not on every request.
  if (++hits.calls % 200 === 0) {
    await db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, now - 86_400_000));
  }
  return row?.count ?? 0;
}

/** The subject's count in the current window, without adding to it. */
export async function countOf(
  db: Db,
  limit: Limit,
  subject: string,
  now = Date.now(),
): Promise<number> {
  const [row] = await db
    .select({ count: rateLimitHits.count })
    .from(rateLimitHits)
    .where(
      and(
        eq(rateLimitHits.bucket, bucketOf(limit, subject)),
        eq(rateLimitHits.windowStart, windowOf(limit, now)),
      ),
    );
  return row?.count ?? 0;
}

/** Forgets the subject's count (a limit on failures, after a success). */
export async function reset(db: Db, limit: Limit, subject: string): Promise<void> {
  await db.delete(rateLimitHits).where(eq(rateLimitHits.bucket, bucketOf(limit, subject)));
}

/** Counts one attempt against each limit; throws RateLimitedError when any is over. */
export async function consume(
  db: Db,
  checks: { limit: Limit; subject: string | null | undefined }[],
  now = Date.now(),
): Promise<void> {
  let retryAfter = 0;
  for (const { limit, subject } of checks) {
    if (!subject) continue;
    if ((await hit(db, limit, subject, now)) > limit.max) {
      retryAfter = Math.max(retryAfter, (windowOf(limit, now) + limit.windowMs - now) / 1000);
    }
  }
  if (retryAfter > 0) throw new RateLimitedError(Math.ceil(retryAfter));
}
