import 'server-only';
import { AUDIENCE_COOKIE, setCookieValue } from '@/server/platform/http/cookies';
import { signToken, verifyToken } from '@/server/platform/security/signing';
import { singleton } from '@/lib/singleton';
import type { Viewer } from '@/lib/access/post-access';

/**
 * Audiences (docs/decisions/007-pages-per-audience.md): the classes of viewer who see the same
 * page. A content page is the same for every anonymous visitor, every free member and every paid
 * member (per-user bits come from client fetches), so the front server keeps one rendering per
 * audience. Staff and preview viewers are not an audience: their pages are rendered per request.
 * `metered` is a free member for whom the metered wall opened the post
 * (docs/decisions/055-metered-wall.md): never a session's audience, only a post page's entry,
 * chosen by the front server after the database holds the reader's read of that post.
 */
export const AUDIENCES = ['anonymous', 'member', 'paid', 'metered'] as const;
export type Audience = (typeof AUDIENCES)[number];

/** The audience whose page this viewer sees, or null when the page is theirs alone. */
export function audienceOf(viewer: Viewer): Exclude<Audience, 'metered'> | null {
  switch (viewer.kind) {
    case 'anonymous':
      return 'anonymous';
    case 'member':
      return viewer.paid ? 'paid' : 'member';
    default:
      return null;
  }
}

/**
 * The audience cookie: which audience a session belongs to, signed (APP_SECRET) and bound to
 * the session cookie's exact value, for 60 seconds. The front server trusts it instead of
 * asking the database on every request; when it is missing, expired, or bound to another
 * session, the server asks the database and sets a fresh one. So a plan that ends stops full
 * pages within 60 s, and signing out (the session cookie goes) stops them at once.
 */
export const AUDIENCE_COOKIE_SECONDS = 60;
const PURPOSE = 'audience';
/**
 * What the cookie may say: an audience, or a session whose pages are rendered per request but
 * known to be so: staff, and `personal`, a reader who has a billing notice to be shown in the
 * page as sent (src/server/features/billing/reader-notices.ts, hasBillingNotice). `buyer` is a
 * free member who has bought posts (docs/decisions/053-one-time-payments.md): their post pages
 * are rendered for them alone (the free audience's copy of a bought post is its paywall), every
 * other page is the free members' (servedAs).
 */
export type SessionAudience = Exclude<Audience, 'metered'> | 'staff' | 'personal' | 'buyer';
const SESSION_AUDIENCES: readonly SessionAudience[] = [
  'anonymous',
  'member',
  'paid',
  'staff',
  'personal',
  'buyer',
];
/** Whether a session's pages are rendered for it alone, never from the cache. */
export const rendersAlone = (audience: SessionAudience): audience is 'staff' | 'personal' =>
  audience === 'staff' || audience === 'personal';
/** A post's page (and what is under it): what a buyer's session is never served from a cache. */
const POST_PAGE = /^\/posts\/[^/?#]/;
/**
 * The cached audience whose page answers this session at `path`, or null: rendered alone, or,
 * while the metered wall is on (docs/decisions/055-metered-wall.md), a free member's post page,
 * whose entry the front server's meter chooses per request (front/metered-page.ts).
 */
export function servedAs(
  audience: SessionAudience,
  path: string,
  options: { metered?: boolean } = {},
): Audience | null {
  if (rendersAlone(audience)) return null;
  const freeMember = audience === 'buyer' || audience === 'member';
  if (freeMember && (audience === 'buyer' || options.metered) && POST_PAGE.test(path)) return null;
  return audience === 'buyer' ? 'member' : audience;
}
/** Whether a session is a free member's, whose post pages the metered wall may open. */
export const isFreeMember = (audience: SessionAudience) =>
  audience === 'member' || audience === 'buyer';
export function sessionAudienceOf(viewer: Viewer): SessionAudience {
  return audienceOf(viewer) ?? 'staff';
}
/** What a valid audience cookie says: the audience, whose it is, and when it was signed (ms). */
export type SignedAudience = { audience: SessionAudience; userId: string; issuedAt: number };

export function audienceCookie(
  audience: SessionAudience,
  session: { cookie: string; userId: string | null },
  options: { secure: boolean; now?: number },
): string {
  const now = options.now ?? Date.now();
  const token = signToken(PURPOSE, `${audience}:${session.userId ?? ''}:${now}`, {
    seconds: AUDIENCE_COOKIE_SECONDS,
    boundTo: session.cookie,
    now,
  });
  return setCookieValue(AUDIENCE_COOKIE, token, {
    maxAgeSeconds: AUDIENCE_COOKIE_SECONDS,
    secure: options.secure,
  });
}

/**
 * Audience cookies already verified, by session and token: a reader sends the same pair with
 * every request for a minute, and its MAC (an HMAC) was a few per cent of the server's CPU under
 * load. Only a pair that verified is kept, with its expiry, which is checked again at each use;
 * a changed character is another key, verified afresh. Oldest first out.
 */
const VERIFIED_KEPT = 2_000;
const verified = singleton(
  'verified-audience-cookies',
  () => new Map<string, { signed: SignedAudience; expiresMs: number }>(),
);

export function readAudienceCookie(
  value: string | undefined,
  sessionCookie: string,
  now?: number,
): SignedAudience | null {
  if (!value) return null;
  const nowMs = now ?? Date.now();
  // A session cookie's value has no line break (a cookie value cannot): the key is unambiguous.
  const key = `${sessionCookie}\n${value}`;
  const kept = verified.get(key);
  if (kept) return kept.expiresMs > nowMs ? kept.signed : null;
  const signed = verifyAudienceCookie(value, sessionCookie, nowMs);
  if (signed) {
    if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value!);
    // The expiry verifyToken just checked: the token's second part, in Unix seconds.
    verified.set(key, { signed, expiresMs: Number(value.split('.')[1]) * 1000 });
  }
  return signed;
}

function verifyAudienceCookie(
  value: string,
  sessionCookie: string,
  now: number,
): SignedAudience | null {
  const payload = verifyToken(PURPOSE, value, { boundTo: sessionCookie, now });
  const [audience = '', userId = '', issuedAt = '', extra] = payload?.split(':') ?? [];
  if (
    payload === null ||
    extra !== undefined ||
    !(SESSION_AUDIENCES as readonly string[]).includes(audience)
  )
    return null;
  if (!/^[0-9]{1,15}$/.test(issuedAt)) return null;
  return { audience: audience as SessionAudience, userId, issuedAt: Number(issuedAt) };
}
