import 'server-only';
import { singleton } from '@/lib/singleton';
import { sql } from 'drizzle-orm';
import { env } from '@/env';
import { type Db, isClosedDatabaseError, queryRows } from '@/server/platform/db/client';
import type { ApiKeyPrincipal } from '@/server/services/cms/api-keys';
import { CmsApiError } from '@/server/services/cms/errors';

/**
 * Per-key limits in one-second windows, counted in PostgreSQL so that every app instance
 * shares them (no shared state in process memory: docs/decisions/000-design-baseline.md). A write
 * per request would cost more than the request itself, so each instance sends its count on the
 * first request of a window (and waits for the total), then batches the rest every FLUSH_MS. One
 * instance is exact; with several, a window can pass its limit by what the others counted in
 * FLUSH_MS. The site's own in-process key is exempt. Requests by client address are limited by
 * ./limiter.ts instead: minute and hour windows need no batching.
 */

const FLUSH_MS = 50;

type Counter = {
  window: number;
  /** The shared total at the last flush, our flushed requests included. */
  known: number;
  /** Our requests not yet sent. */
  unflushed: number;
  /** Our requests sent whose total has not come back: still ours to count meanwhile. */
  sending: number;
  timer: NodeJS.Timeout | null;
};

const counters = singleton('cms-rate-counters', () => new Map<string, Counter>());

async function flush(db: Db, keyId: string, kind: string, counter: Counter): Promise<void> {
  const n = counter.unflushed;
  counter.unflushed = 0;
  if (n === 0) return;
  counter.sending += n;
  try {
    const [row] = await queryRows<{ count: number }>(
      db,
      sql`INSERT INTO cms_rate_limits (key_id, kind, "window", count) VALUES (${keyId}, ${kind}, ${counter.window}, ${n})
          ON CONFLICT (key_id, kind, "window") DO UPDATE SET count = cms_rate_limits.count + ${n}
          RETURNING count`,
    );
    counter.known = Math.max(counter.known + n, row?.count ?? 0);
  } finally {
    counter.sending -= n;
  }
}

function sweep(db: Db, now: number): void {
  for (const [key, counter] of counters)
    if (counter.window < now - 2 && !counter.timer) counters.delete(key);
  // Old windows are useless after a second; the table is swept now and then too.
  if (Math.random() < 0.01) {
    db.execute(sql`DELETE FROM cms_rate_limits WHERE "window" < ${now - 60}`).catch(
      (error: unknown) => console.error('[cms] rate-limit sweep failed:', error),
    );
  }
}

export async function enforceRateLimit(
  db: Db,
  principal: ApiKeyPrincipal,
  kind: 'read' | 'write',
): Promise<void> {
  if (principal.internal) return;
  const limit = kind === 'read' ? env().CMS_RATE_LIMIT_READ : env().CMS_RATE_LIMIT_WRITE;
  const window = Math.floor(Date.now() / 1000);
  const id = `${principal.id}:${kind}`;
  let counter = counters.get(id);
  if (!counter || counter.window !== window) {
    counter = { window, known: 0, unflushed: 1, sending: 0, timer: null };
    counters.set(id, counter);
    if (counters.size > 1000) sweep(db, window);
    await flush(db, principal.id, kind, counter);
  } else {
    counter.unflushed++;
    if (!counter.timer) {
      const current = counter;
      current.timer = setTimeout(() => {
        current.timer = null;
        flush(db, principal.id, kind, current).catch((error: unknown) => {
          // After the database closed (shutdown) the count no longer matters.
          if (!isClosedDatabaseError(error)) console.error('[cms] rate-limit flush failed:', error);
        });
      }, FLUSH_MS);
      current.timer.unref();
    }
  }
  if (counter.known + counter.sending + counter.unflushed > limit) {
    throw new CmsApiError(429, 'Too many requests, please try again later.', {
      'X-RateLimit-Limit': String(limit),
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(window + 1),
    });
  }
}

/** What another app instance starts with: no local counts (tests of the shared total). */
export function forgetLocalCounts(): void {
  counters.clear();
}
