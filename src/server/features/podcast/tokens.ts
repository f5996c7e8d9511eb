import 'server-only';
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { podcastFeeds, user } from '@/server/platform/db/schema';
import { keyedDigest } from '@/server/platform/security/signing';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { AppUser } from '@/server/features/identity';

/**
 * A reader's private feed address (docs/decisions/062-private-podcast-feeds.md). The token is
 * the keyed digest (APP_SECRET) of a random 128-bit nonce: 32 base64url characters, 192 bits.
 * The database keeps the nonce and the token's SHA-256: /account shows the address again by
 * recomputing it, a request is matched by the hash, and neither column alone opens a feed.
 * Every request looks the token up (no cache): a revoked address stops on its next request.
 */

/** A token exactly as issued: anything else (another case, padding, %-encoding) is no token. */
export const FEED_TOKEN = /^[A-Za-z0-9_-]{32}$/;
const PURPOSE = 'podcast-feed';

const tokenOf = (nonce: string) => keyedDigest(PURPOSE, nonce);
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** The reader's live token, made now if they have none. */
export async function feedTokenFor(db: Db, userId: string): Promise<string> {
  const [live] = await db
    .select({ nonce: podcastFeeds.nonce })
    .from(podcastFeeds)
    .where(and(eq(podcastFeeds.userId, userId), isNull(podcastFeeds.revokedAt)))
    .limit(1);
  if (live) return tokenOf(live.nonce);
  const nonce = randomBytes(16).toString('base64url');
  const token = tokenOf(nonce);
  // Two first visits at once: the partial unique index keeps one, and both show it.
  const made = await db
    .insert(podcastFeeds)
    .values({ userId, nonce, tokenHash: hashOf(token) })
    .onConflictDoNothing()
    .returning({ id: podcastFeeds.id });
  return made.length > 0 ? token : feedTokenFor(db, userId);
}

/** The reader whose live feed this token is, or null (malformed, unknown or revoked). */
export async function feedOwner(db: Db, token: string): Promise<AppUser | null> {
  if (!FEED_TOKEN.test(token)) return null;
  const [owner] = await db
    .select({
      id: user.id,
      email: user.email,
      name: user.name,
      role: user.role,
      emailVerified: user.emailVerified,
    })
    .from(podcastFeeds)
    .innerJoin(user, eq(user.id, podcastFeeds.userId))
    .where(and(eq(podcastFeeds.tokenHash, hashOf(token)), isNull(podcastFeeds.revokedAt)))
    .limit(1);
  return owner ? { ...owner, role: owner.role as AppUser['role'] } : null;
}

/** Revokes the reader's live feed, if any; true when one was. */
async function revokeLive(db: Db, userId: string): Promise<boolean> {
  const revoked = await db
    .update(podcastFeeds)
    .set({ revokedAt: new Date() })
    .where(and(eq(podcastFeeds.userId, userId), isNull(podcastFeeds.revokedAt)))
    .returning({ id: podcastFeeds.id });
  return revoked.length > 0;
}

/**
 * 「URLを再発行」: the old address stops at once, a new one is made, and the audit log says so.
 * Returns the new token.
 */
export async function reissueFeed(db: Db, userId: string, ip: string | null): Promise<string> {
  const token = await db.transaction(async (tx) => {
    await revokeLive(tx, userId);
    return feedTokenFor(tx, userId);
  });
  await recordAudit(db, {
    actor: `user:${userId}`,
    action: 'podcast-feed-reissued',
    target: `user:${userId}`,
    ip,
  });
  return token;
}

/**
 * Staff revoke a reader's feed (one leaked to a public directory): no new address is made; the
 * reader's next visit to /account makes one. True when there was a live one.
 */
export async function revokeFeedByStaff(db: Db, userId: string, actor: string): Promise<boolean> {
  const revoked = await revokeLive(db, userId);
  if (revoked)
    await recordAudit(db, {
      actor,
      action: 'podcast-feed-revoked',
      target: `user:${userId}`,
    });
  return revoked;
}
