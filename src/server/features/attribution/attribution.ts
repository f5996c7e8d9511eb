import 'server-only';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { userPrivateProfiles } from '@/server/platform/db/schema';
import { PATH_START_COOKIE, readCookieHeader } from '@/server/platform/http/cookies';
import { type ContentRef, contentForPath, isContentEndpoint, pathForContent } from './content-path';

/**
 * First-party attribution (docs/decisions: knowing what converts): the members' item whose
 * paywall a reader met first is where their path to payment started. The view beacon
 * (view-endpoint.ts) keeps it in a first-party cookie when it records a paywall view the server
 * checked; the sign-up stores it with the reader's private profile, and the checkout passes it
 * to the provider as the subscription's metadata `source`, from which the subscription record
 * is synced (billing/records.ts). Nothing leaves the site but that item's path, on the
 * reader's own subscription.
 *
 * Honoured as for page views: the browser sends no beacon under Do Not Track, Global Privacy
 * Control or the footer's opt-out (which also deletes this cookie), and the server keeps and
 * reads nothing for a request that says DNT or Sec-GPC.
 */

/** The cookie lives 30 days: a path to payment that takes longer starts again. */
export const PATH_START_SECONDS = 30 * 24 * 3600;

/** A request whose browser asks not to be tracked (Do Not Track, Global Privacy Control). */
export function asksNotToTrack(headers: Pick<Headers, 'get'>): boolean {
  return headers.get('dnt') === '1' || headers.get('sec-gpc') === '1';
}

/**
 * The cookie that keeps where the path started. Not HttpOnly: the footer's opt-out deletes it
 * in the browser. It holds only an item's public path, and the pages never read it, so the page
 * cache treats it as harmless (cookies.ts).
 */
export function pathStartCookie(ref: ContentRef, options: { secure: boolean }): string {
  return `${PATH_START_COOKIE}=${encodeURIComponent(pathForContent(ref))}; Path=/; Max-Age=${PATH_START_SECONDS}; SameSite=Lax${
    options.secure ? '; Secure' : ''
  }`;
}

/** The item a request's cookie names, or null (none, not an item, or tracking refused). */
export function pathStartOf(headers: Pick<Headers, 'get'>): ContentRef | null {
  if (asksNotToTrack(headers)) return null;
  const value = readCookieHeader(headers.get('cookie') ?? undefined)?.get(PATH_START_COOKIE);
  if (!value) return null;
  let path: string;
  try {
    path = decodeURIComponent(value);
  } catch {
    return null;
  }
  return contentForPath(path);
}

/** The source a subscription's metadata names (the checkout's `source`), or null. */
export function sourceOfMetadata(
  metadata: Record<string, string> | null | undefined,
): ContentRef | null {
  const source = metadata?.source;
  return typeof source === 'string' ? contentForPath(source) : null;
}

/** The metadata entry the checkout passes for the item, if any. */
export function sourceMetadata(ref: ContentRef | null): { source?: string } {
  return ref ? { source: pathForContent(ref) } : {};
}

/** Records where a new reader's sign-up started; a source already kept is never replaced. */
export async function recordSignUpSource(db: Db, userId: string, ref: ContentRef): Promise<void> {
  await db
    .update(userPrivateProfiles)
    .set({ sourceEndpoint: ref.endpoint, sourceContentId: ref.contentId })
    .where(and(eq(userPrivateProfiles.userId, userId), isNull(userPrivateProfiles.sourceEndpoint)));
}

/** Where a reader's sign-up started, as recorded; null when nothing was kept. */
export async function signUpSourceOf(db: Db, userId: string): Promise<ContentRef | null> {
  const [row] = await db
    .select({
      endpoint: userPrivateProfiles.sourceEndpoint,
      contentId: userPrivateProfiles.sourceContentId,
    })
    .from(userPrivateProfiles)
    .where(eq(userPrivateProfiles.userId, userId));
  if (!row?.endpoint || !row.contentId) return null;
  return isContentEndpoint(row.endpoint)
    ? { endpoint: row.endpoint, contentId: row.contentId }
    : null;
}

/**
 * The source a checkout passes to the provider: the path started in this browser, else the
 * one kept at the reader's sign-up; nothing for a request that asks not to be tracked.
 */
export async function checkoutSourceOf(
  db: Db,
  headers: Pick<Headers, 'get'>,
  userId: string,
): Promise<ContentRef | null> {
  if (asksNotToTrack(headers)) return null;
  return pathStartOf(headers) ?? (await signUpSourceOf(db, userId));
}
