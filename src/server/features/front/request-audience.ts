import 'server-only';
import type { IncomingMessage } from 'node:http';
import {
  type Audience,
  audienceChangedSince,
  audienceCookie,
  isFreeMember,
  readAudienceCookie,
  type SessionAudience,
  rendersAlone,
  servedAs,
  sessionAudienceOf,
} from '@/server/features/audience';
import { hasBillingNotice } from '@/server/features/billing';
import { hasPaidPurchase } from '@/server/features/purchases';
import { meteredAllowance } from '@/server/features/metered';
import { getDb } from '@/server/platform/db/client';
import { viewerForUser } from '@/server/features/access';
import { userFromHeaders } from '@/server/features/identity';
import {
  AUDIENCE_COOKIE,
  SESSION_COOKIES,
  isHarmlessCookie,
  readCookieHeader,
} from '@/server/platform/http/cookies';
import { webHeaders } from './node-bridge';

/**
 * Which audience's cached page a request may be answered with, decided from an allow-list of
 * cookies read with the auth library's own parser (src/server/platform/http/cookies.ts):
 * - only harmless cookies (or none): anonymous;
 * - one session cookie, perhaps the audience cookie, and harmless ones: the audience the
 *   signed audience cookie names for that very session (unless that user's plan or role has
 *   changed since it was signed), or else the one the database gives (and a fresh audience
 *   cookie to set). Staff are rendered per request, and so is a reader who has a billing
 *   notice to be shown (src/server/features/billing/reader-notices.ts): the page they are sent
 *   carries it; and so are the post pages of a free member who bought posts (`buyer`,
 *   docs/decisions/053-one-time-payments.md), their other pages being the free members'. While
 *   the metered wall is on, a free member's post page is the entry the meter chooses
 *   (`meterFor`: whose meter, from the signed cookie or the session; metered-page.ts);
 * - anything else (a preview, a one-time message, an unknown or duplicated cookie, a spelling
 *   a parser could read differently): no cache at all.
 * The page the framework renders then notes the audience it rendered for, and the cache files
 * it only under that one (src/server/features/audience/render-record.ts), whatever was decided here.
 */

export type RequestAudience =
  | { cache: false; setCookie?: string }
  | {
      cache: true;
      audience: Audience;
      setCookie?: string;
      /** The reader whose meter chooses the entry (a free member's post page, the wall on). */
      meterFor?: string;
      /** The metered wall's line the entry shows, part of its key (metered-page.ts). */
      meter?: string;
    };

const NO_CACHE: RequestAudience = { cache: false };

export async function requestAudience(
  req: IncomingMessage,
  options: { secure: boolean; now?: number },
): Promise<RequestAudience> {
  const cookies = readCookieHeader(req.headers.cookie);
  if (!cookies) return NO_CACHE;
  const sessions: string[] = [];
  for (const name of cookies.keys()) {
    if (SESSION_COOKIES.includes(name)) sessions.push(name);
    else if (name !== AUDIENCE_COOKIE && !isHarmlessCookie(name)) return NO_CACHE;
  }
  if (sessions.length === 0) return { cache: true, audience: 'anonymous' };
  if (sessions.length > 1) return NO_CACHE;
  const session = cookies.get(sessions[0]!)!;

  const signed = readAudienceCookie(cookies.get(AUDIENCE_COOKIE), session, options.now);
  const path = req.url ?? '/';
  if (signed && !audienceChangedSince(signed.userId, signed.issuedAt))
    return cachedAs(signed.audience, path, signed.userId);

  const user = await userFromHeaders(webHeaders(req));
  const viewer = sessionAudienceOf(await viewerForUser(user));
  let known: SessionAudience = viewer;
  // A reader with a billing notice: their pages carry it, so they are rendered for them alone.
  if (!rendersAlone(viewer) && user && (await noticeFor(user.id))) known = 'personal';
  // A free member who bought posts: their post pages are theirs alone (decision 053).
  else if (viewer === 'member' && user && (await boughtAny(user.id))) known = 'buyer';
  const setCookie = audienceCookie(known, { cookie: session, userId: user?.id ?? null }, options);
  return { ...(await cachedAs(known, path, user?.id ?? null)), setCookie };
}

/**
 * The cached page for a session's audience at `path`. While the metered wall is on for a free
 * member (docs/decisions/055-metered-wall.md; the allowance is kept 10 s), their post page is
 * the meter's choice (`meterFor`), except a buyer's, which stays theirs alone.
 */
async function cachedAs(
  known: SessionAudience,
  path: string,
  userId: string | null,
): Promise<RequestAudience> {
  const metered = isFreeMember(known) && (await meteredAllowance()) > 0;
  const served = servedAs(known, path, { metered });
  if (served) return { cache: true, audience: served };
  if (metered && known === 'member' && userId)
    return { cache: true, audience: 'member', meterFor: userId };
  return NO_CACHE;
}

/** Whether the reader bought posts; if that cannot be told, their post pages are theirs alone. */
async function boughtAny(userId: string): Promise<boolean> {
  return hasPaidPurchase(await getDb(), userId).catch((error: unknown) => {
    console.warn('[front] whether the reader bought posts could not be told:', error);
    return true;
  });
}

/** Whether the reader has a billing notice; if that cannot be told, the page is as for anyone. */
async function noticeFor(userId: string): Promise<boolean> {
  return hasBillingNotice(await getDb(), userId).catch((error: unknown) => {
    console.warn('[front] whether the reader has a billing notice could not be told:', error);
    return false;
  });
}
