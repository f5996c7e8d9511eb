import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, lt, or } from 'drizzle-orm';
import { API_PERMISSIONS, type ApiPermission } from '@/lib/cms/api-key-permissions';
import { singleton } from '@/lib/singleton';
import type { Db } from '@/server/platform/db/client';
import { cmsApiKeys } from '@/server/platform/db/schema';
import { sameSecret } from '@/server/platform/security/signing';

/**
 * API keys of the content API (header X-MICROCMS-API-KEY). Keys are random 256-bit secrets;
 * only their SHA-256 is stored (a slow hash adds nothing for secrets of that entropy).
 */

export type ApiKeyPrincipal = {
  id: string;
  name: string;
  permissions: ReadonlySet<ApiPermission>;
  /** The app's own in-process key: exempt from rate limits. */
  internal: boolean;
};

const KEY_PREFIX = 'cms_';

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function parsePermissions(list: string): ApiPermission[] {
  const wanted = list
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = wanted.filter((p) => !(API_PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length) {
    throw new Error(
      `不明な権限です: ${unknown.join(', ')} (使えるもの: ${API_PERMISSIONS.join(', ')})`,
    );
  }
  if (wanted.length === 0) throw new Error('権限を一つ以上指定してください。');
  if (wanted.includes('drafts') && !wanted.includes('GET')) {
    throw new Error('drafts には GET も必要です。');
  }
  return [...new Set(wanted)] as ApiPermission[];
}

export async function createApiKey(
  db: Db,
  input: { name: string; permissions: ApiPermission[] },
): Promise<{ id: string; key: string }> {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(cmsApiKeys)
    .values({
      name: input.name,
      keyHash: hashKey(key),
      keyPrefix: key.slice(0, KEY_PREFIX.length + 6),
      permissions: input.permissions,
    })
    .returning({ id: cmsApiKeys.id });
  return { id: row!.id, key };
}

export async function listApiKeys(db: Db) {
  return db
    .select({
      id: cmsApiKeys.id,
      name: cmsApiKeys.name,
      keyPrefix: cmsApiKeys.keyPrefix,
      permissions: cmsApiKeys.permissions,
      createdAt: cmsApiKeys.createdAt,
      revokedAt: cmsApiKeys.revokedAt,
      lastUsedAt: cmsApiKeys.lastUsedAt,
    })
    .from(cmsApiKeys)
    .orderBy(asc(cmsApiKeys.createdAt));
}

export async function revokeApiKey(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(cmsApiKeys)
    .set({ revokedAt: new Date() })
    .where(and(eq(cmsApiKeys.id, id), isNull(cmsApiKeys.revokedAt)))
    .returning({ id: cmsApiKeys.id });
  cache.clear(); // other instances forget it within CACHE_MS
  return rows.length > 0;
}

/**
 * The process's own key for the site's reads through the in-process path. It never leaves
 * the process and is not stored; each app instance makes its own at start.
 */
const internalKey = KEY_PREFIX + 'internal_' + randomBytes(32).toString('base64url');
export const INTERNAL_PRINCIPAL: ApiKeyPrincipal = {
  id: 'internal',
  name: 'site (in-process)',
  permissions: new Set<ApiPermission>(['GET']), // never 'drafts': drafts reach pages only by draftKey
  internal: true,
};

export function internalApiKey(): string {
  return internalKey;
}

/**
 * The process's own key for the app's writes (a partner's approved job listing, a partner's
 * profile: src/server/features/content/content-writer.ts), kept apart from the read key so that no
 * page read can write. Never stored, never leaves the process.
 */
const internalWriterKey = KEY_PREFIX + 'internal_w_' + randomBytes(32).toString('base64url');
export const INTERNAL_WRITER_PRINCIPAL: ApiKeyPrincipal = {
  id: 'internal-writer',
  name: 'site writes (in-process)',
  permissions: new Set<ApiPermission>(['GET', 'POST', 'PUT', 'PATCH']),
  internal: true,
};

export function internalWriterApiKey(): string {
  return internalWriterKey;
}

/** A key's last use is kept to the minute: enough to tell a live key from a forgotten one. */
export const LAST_USED_INTERVAL_MS = 60_000;

/**
 * Which keys this process has noted as used, and when: a busy key then writes its last use at
 * most once a minute instead of on every request. Other instances keep their own; the UPDATE's
 * condition (noteKeyUse) spares the row their writes within the same minute.
 */
export class LastUsedThrottle {
  private readonly noted = new Map<string, number>();

  constructor(
    private readonly intervalMs = LAST_USED_INTERVAL_MS,
    private readonly maxKeys = 10_000,
  ) {}

  /** True when the use of `keyId` at `now` (ms) is to be written; it then counts as written. */
  take(keyId: string, now: number): boolean {
    const last = this.noted.get(keyId);
    if (last !== undefined && now - last < this.intervalMs) return false;
    if (this.noted.size >= this.maxKeys) this.noted.clear(); // forgetting costs one more write
    this.noted.set(keyId, now);
    return true;
  }

  clear(): void {
    this.noted.clear();
  }
}

// One per process, not per route bundle: the routes that revoke a key and the API that
// checks it are bundled apart, and each must see the other's changes.
const lastUsed = singleton('cms-api-key-last-used', () => new LastUsedThrottle());

async function noteKeyUse(db: Db, keyId: string): Promise<void> {
  const now = Date.now();
  if (!lastUsed.take(keyId, now)) return;
  try {
    await db
      .update(cmsApiKeys)
      .set({ lastUsedAt: new Date(now) })
      .where(
        and(
          eq(cmsApiKeys.id, keyId),
          or(
            isNull(cmsApiKeys.lastUsedAt),
            lt(cmsApiKeys.lastUsedAt, new Date(now - LAST_USED_INTERVAL_MS)),
          ),
        ),
      );
  } catch (error) {
    // A bookkeeping write: the request the key opened goes on without it.
    console.error('[cms] could not note an API key as used:', error);
  }
}

/** Keys are looked up on every request; a few seconds of caching keeps that off the database. */
const CACHE_MS = 5_000;
const cache = singleton(
  'cms-api-key-cache',
  () => new Map<string, { principal: ApiKeyPrincipal | null; until: number }>(),
);

export async function authenticateApiKey(
  db: Db,
  key: string | null,
): Promise<ApiKeyPrincipal | null> {
  if (!key || key.length > 200) return null;
  if (sameSecret(key, internalKey)) return INTERNAL_PRINCIPAL;
  if (sameSecret(key, internalWriterKey)) return INTERNAL_WRITER_PRINCIPAL;
  const hash = hashKey(key);
  const cached = cache.get(hash);
  if (cached && cached.until > Date.now()) {
    if (cached.principal) await noteKeyUse(db, cached.principal.id);
    return cached.principal;
  }
  const [row] = await db
    .select({ id: cmsApiKeys.id, name: cmsApiKeys.name, permissions: cmsApiKeys.permissions })
    .from(cmsApiKeys)
    .where(and(eq(cmsApiKeys.keyHash, hash), isNull(cmsApiKeys.revokedAt)))
    .limit(1);
  const principal = row
    ? {
        id: row.id,
        name: row.name,
        permissions: new Set(row.permissions as ApiPermission[]),
        internal: false,
      }
    : null;
  if (cache.size > 10_000) cache.clear();
  cache.set(hash, { principal, until: Date.now() + CACHE_MS });
  if (principal) await noteKeyUse(db, principal.id);
  return principal;
}

/** Tests and revocation: forget cached keys (and which uses were noted) at once. */
export function clearApiKeyCache(): void {
  cache.clear();
  lastUsed.clear();
}
