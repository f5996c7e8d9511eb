import 'server-only';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { billingSandboxSettings } from '@/server/platform/db/schema';
import { singleton } from '@/lib/singleton';

/**
 * The sandbox's secret API key (`sk_test_…`), made at random on first use and kept in the
 * database. Kept rather than derived from the app secret so that it lives with the data it
 * guards: every instance on the same database agrees on it, and moving APP_SECRET (or the
 * data directory's secret file) does not silently change the key tools were given.
 */

const SETTING = 'secret_key';
const cache = singleton('sandbox-secret-keys', () => new WeakMap<Db, string>());

export async function sandboxSecretKey(db: Db): Promise<string> {
  const cached = cache.get(db);
  if (cached) return cached;
  const made = `sk_test_${randomBytes(24).toString('hex')}`;
  // Two first uses at once: the second insert does nothing and both read the winner.
  await db
    .insert(billingSandboxSettings)
    .values({ name: SETTING, value: made })
    .onConflictDoNothing();
  const rows = await db
    .select({ value: billingSandboxSettings.value })
    .from(billingSandboxSettings)
    .where(eq(billingSandboxSettings.name, SETTING));
  const key = rows[0]?.value;
  if (!key) throw new Error('billing sandbox: the secret key could not be stored');
  cache.set(db, key);
  return key;
}

/** Whether an Authorization header carries the sandbox's key (Bearer, or Basic as curl -u sends). */
export async function isSandboxAuthorization(db: Db, header: string | null): Promise<boolean> {
  if (!header) return false;
  let given: string | undefined;
  const [scheme, credentials] = header.trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() === 'bearer') given = credentials;
  else if (scheme?.toLowerCase() === 'basic' && credentials) {
    given = Buffer.from(credentials, 'base64').toString('utf8').split(':')[0];
  }
  if (!given) return false;
  const key = Buffer.from(await sandboxSecretKey(db));
  const candidate = Buffer.from(given);
  return candidate.length === key.length && timingSafeEqual(candidate, key);
}
