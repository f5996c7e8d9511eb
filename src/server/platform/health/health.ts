import 'server-only';
import { databaseAvailable } from '@/server/platform/db/availability';

export type Health = { status: 'ok' | 'error'; db: 'ok' | 'error' };

const DB_TIMEOUT_MS = 3000;

const DOWN = { httpStatus: 503, body: { status: 'error', db: 'error' } } as const;

/**
 * The health answer: ok when the database answers a query within 3 s. While the database is
 * known to be down (src/server/platform/db/availability.ts) it answers 503 at once: a load balancer's
 * checks must not each wait for a query that cannot succeed, and the probe is what notices the
 * return.
 */
export async function checkHealth(
  pingDb: () => Promise<void>,
  available: () => boolean = databaseAvailable,
): Promise<{ httpStatus: 200 | 503; body: Health }> {
  if (!available()) return DOWN;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      pingDb(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('database ping timed out')), DB_TIMEOUT_MS);
      }),
    ]);
    return { httpStatus: 200, body: { status: 'ok', db: 'ok' } };
  } catch {
    return DOWN;
  } finally {
    clearTimeout(timer);
  }
}
