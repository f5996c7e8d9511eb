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
 *   docs/decisions/053-one-time-payments.md), their other pages being the free members', and,
 *   while the metered wall is on, every free member's post pages (decision 055);
 * - anything else (a preview, a one-time message, an unknown or duplicated cookie, a spelling
 *   a parser could read differently): no cache at all.
 * The page the framework renders then notes the audience it rendered for, and the cache files
 * it only under that one (src/server/features/audience/render-record.ts), whatever was decided here.
 */

export type RequestAudience =
  { cache: false; setCookie?: string } | { cache: true; audience: Audience; setCookie?: string };

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
  if (signed && !audienceChangedSince(signed.userId, signed.issuedAt)) {
    const served = servedAs(signed.audience, path, await meteredFor(signed.audience));
    return served ? { cache: true, audience: served } : NO_CACHE;
  }

  const user = await userFromHeaders(webHeaders(req));
  const viewer = sessionAudienceOf(await viewerForUser(user));
  let known: SessionAudience = viewer;
  // A reader with a billing notice: their pages carry it, so they are rendered for them alone.
  if (!rendersAlone(viewer) && user && (await noticeFor(user.id))) known = 'personal';
  // A free member who bought posts: their post pages are theirs alone (decision 053).
  else if (viewer === 'member' && user && (await boughtAny(user.id))) known = 'buyer';
  const setCookie = audienceCookie(known, { cookie: session, userId: user?.id ?? null }, options);
  const served = servedAs(known, path, await meteredFor(known));
  return served ? { cache: true, audience: served, setCookie } : { cache: false, setCookie };
}

/**
 * Whether the metered wall is on for this session (a free member's; docs/decisions/055-metered-wall.md):
 * then their post pages are decided by the meter, per request. The allowance is kept 10 s.
 */
async function meteredFor(audience: SessionAudience): Promise<{ metered: boolean }> {
  return { metered: isFreeMember(audience) && (await meteredAllowance()) > 0 };
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
