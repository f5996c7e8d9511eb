import 'server-only';
import { createHash } from 'node:crypto';
import { lt, sql } from 'drizzle-orm';
import type { Db } from '@/server/db/client';
import { rateLimitHits } from '@/server/db/schema';

/**
 * Fixed-window request limits counted in the database, so every app instance shares them.
 * Subjects (an IP address, an e-mail address) are stored only as hashes.
 */

export type Limit = { name: string; max: number; windowMs: number };

export class RateLimitedError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(
      `短時間に何度も試みられたため、一時的に受け付けを停止しています。${Math.max(1, Math.ceil(retryAfterSeconds / 60))} 分ほど待ってからもう一度お試しください。`,
    );
    this.name = 'RateLimitedError';
  }
}

const hashed = (subject: string) =>
  createHash('sha256').update(subject.toLowerCase()).digest('base64url').slice(0, 32);

let calls = 0;

/** Counts one attempt against each limit; throws RateLimitedError when any is over. */
export async function consume(
  db: Db,
  checks: { limit: Limit; subject: string | null | undefined }[],
  now = Date.now(),
): Promise<void> {
  let retryAfter = 0;
  for (const { limit, subject } of checks) {
    if (!subject) continue;
    const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
    const [row] = await db
      .insert(rateLimitHits)
      .values({ bucket: `${limit.name}:${hashed(subject)}`, windowStart, count: 1 })
      .onConflictDoUpdate({
        target: [rateLimitHits.bucket, rateLimitHits.windowStart],
        set: { count: sql`${rateLimitHits.count} + 1` },
      })
      .returning({ count: rateLimitHits.count });
    if ((row?.count ?? 0) > limit.max) {
      retryAfter = Math.max(retryAfter, (windowStart + limit.windowMs - now) / 1000);
    }
  }
  // Old windows are dropped now and then, not on every request.
  if (++calls % 200 === 0) {
    await db.delete(rateLimitHits).where(lt(rateLimitHits.windowStart, now - 86_400_000));
  }
  if (retryAfter > 0) throw new RateLimitedError(Math.ceil(retryAfter));
}
