import 'server-only';
import { parseCookies } from 'better-auth/cookies';

/**
 * Every cookie the site reads or sets is named here and imported from here, so that the front
 * server's cache decides what a request is from the same list the code that reads them uses.
 * Cookie headers are read with better-auth's parser (the library that decides who is signed
 * in), so a spelling it accepts (`axis.session_token =…`, a tab, quotes) is seen the same way.
 */

/** better-auth's cookie prefix (src/server/features/identity/auth.ts). */
export const AUTH_COOKIE_PREFIX = 'axis';
/** The names better-auth may read a session from (the `__Secure-` form under https). */
export const SESSION_COOKIES: readonly string[] = [
  `${AUTH_COOKIE_PREFIX}.session_token`,
  `__Secure-${AUTH_COOKIE_PREFIX}.session_token`,
];
/** Other cookies of better-auth: each changes what a session request means. */
const AUTH_COOKIES: readonly string[] = ['session_data', 'account_data', 'dont_remember'].flatMap(
  (name) => [`${AUTH_COOKIE_PREFIX}.${name}`, `__Secure-${AUTH_COOKIE_PREFIX}.${name}`],
);

/** One-time form messages (src/lib/http/flash.ts). */
export const FLASH_COOKIE = 'axis_flash';
/** The signed preview of one draft (src/server/features/preview/preview.ts). */
export const PREVIEW_COOKIE = 'axis_preview';
/** The framework's draft mode; the site does not use it, but a request that has it is not plain. */
export const NEXT_DRAFT_COOKIE = '__prerender_bypass';
/** The signed, short-lived audience of a session (src/server/features/audience/audience.ts). */
export const AUDIENCE_COOKIE = 'axis_audience';
/** The address a confirmation mail went to, signed, for the sent page (sign-up-sent.ts). */
export const SIGN_UP_SENT_COOKIE = 'axis_sign_up_sent';
/**
 * The members' item whose paywall a reader met first (src/server/features/attribution/attribution.ts):
 * read only by the sign-up and the checkout, never by a page, so it is harmless to the cache.
 */
export const PATH_START_COOKIE = 'axis_path_start';
/**
 * The checkout a visitor started with an e-mail address, signed: it binds this browser to that
 * checkout (src/server/features/billing/guest-checkout.ts). Read only by the checkout's return
 * route, never by a page, so it is harmless to the cache too.
 */
export const GUEST_CHECKOUT_COOKIE = 'axis_guest_checkout';

/**
 * Cookies that change nothing the server renders: the tag manager's analytics cookies.
 * Anything not named here or above makes a request one the page cache neither answers nor
 * stores (docs/decisions/007-pages-per-audience.md: an allow-list, never a pattern of what is
 * dangerous).
 */
const HARMLESS_COOKIE = /^(?:_ga|_gid|_gat|_ga_[A-Z0-9]{1,20}|_gcl_au)$/;

export const KNOWN_COOKIES: ReadonlySet<string> = new Set([
  ...SESSION_COOKIES,
  ...AUTH_COOKIES,
  FLASH_COOKIE,
  PREVIEW_COOKIE,
  NEXT_DRAFT_COOKIE,
  AUDIENCE_COOKIE,
  SIGN_UP_SENT_COOKIE,
]);

export const isHarmlessCookie = (name: string) =>
  HARMLESS_COOKIE.test(name) || name === PATH_START_COOKIE || name === GUEST_CHECKOUT_COOKIE;

/**
 * The cookies of a request as better-auth reads them, or null when the header holds anything
 * a parser could read differently: a pair better-auth drops, a name spelled with spaces that
 * another parser (the framework's keeps them) would not trim, or a name given twice.
 */
export function readCookieHeader(
  header: string | string[] | undefined,
): Map<string, string> | null {
  const raw = Array.isArray(header) ? header.join('; ') : (header ?? '');
  const chunks = raw.split(';').filter((chunk) => chunk.trim() !== '');
  const parsed = parseCookies(raw);
  if (parsed.size !== chunks.length) return null; // dropped or duplicated pairs
  for (const chunk of chunks) {
    const eq = chunk.indexOf('=');
    const name = chunk.slice(0, eq);
    if (eq < 0 || name.trim() !== name.trimStart() || !parsed.has(name.trim())) return null;
  }
  return parsed;
}

/** A Set-Cookie value of the site's own (Path=/, HttpOnly, SameSite=Lax; Secure under https). */
export function setCookieValue(
  name: string,
  value: string,
  options: { maxAgeSeconds: number; secure: boolean },
): string {
  return `${name}=${value}; Path=/; Max-Age=${options.maxAgeSeconds}; HttpOnly; SameSite=Lax${
    options.secure ? '; Secure' : ''
  }`;
}
