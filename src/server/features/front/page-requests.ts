import 'server-only';
import type { IncomingMessage } from 'node:http';
import { env } from '@/env';
import { AUTH_REDIRECT_TARGET, isExemptFromAuthRedirect } from '@/lib/auth-redirect';
import { FLASH_HEADER } from '@/lib/http/flash';
import { userFromHeaders } from '@/server/features/identity';
import { UNSUBSCRIBE_PATH, verifyUnsubscribeToken } from '@/server/features/profiles';
import { FLASH_COOKIE, setCookieValue } from '@/server/platform/http/cookies';
import type { FrontResponse } from './front-response';
import { webHeaders } from './node-bridge';

/**
 * What is done to a page request before the framework renders it (it was the framework's proxy,
 * src/proxy.ts, whose machinery cost every render more than the work itself:
 * docs/decisions/051-page-requests-in-the-pipeline.md). Four jobs, nothing else:
 * - AUTH_CHECK_REDIRECT=true: an anonymous visitor gets a 307 to /about before any HTML
 *   (SPEC §2). The session is checked against the database, so an expired or forged cookie
 *   counts as anonymous. Pages still check access themselves (docs/decisions/000-design-baseline.md
 *   "Conventions").
 * - A renamed item's old URL answers 301 to its new one, and so does a list filtered by a renamed
 *   tag or feature (`/posts?tag=old`; docs/decisions/033-slugs-and-redirects.md): a page cannot
 *   answer 301 (the framework's permanent redirect is a 308).
 * - A one-time form message (src/lib/http/flash.ts) moves from its cookie into a request
 *   header for this page view, and the cookie is deleted. Only a page load takes it: the
 *   router's prefetches and RSC requests, which may be in flight when the cookie arrives,
 *   would otherwise spend it on a page no one is looking at.
 * - The newsletter's unsubscribe page answers 400 for a token that does not verify (the page
 *   explains it): a page cannot set its own status.
 */

/** Pages: not the framework's files, the API or the billing sandbox (the proxy's matcher). */
const PAGE_PATH = /^\/(?!_next\/static|_next\/image|api\/|billing-sandbox\/)/;

/** A flash cookie as encodeFlash (src/lib/http/flash.ts) writes it: base64url, bounded. */
const FLASH_VALUE = /^[A-Za-z0-9_-]{1,8000}$/;

/** Where a renamed item's page, or a list filtered by one, has moved (path and query), or null. */
export type MovedLocation = (pathname: string, search: string) => Promise<string | null>;

/** A browser loading a page as a document (not the router fetching a segment or prefetching). */
export function isPageLoad(headers: IncomingMessage['headers']): boolean {
  const dest = headers['sec-fetch-dest'];
  if (dest) return dest === 'document';
  return headers.rsc === undefined && headers['next-router-prefetch'] === undefined;
}

/** The first value of a cookie as the request sent it (the framework's parser took the first). */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq >= 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Answers a page request that is to be redirected (true), or prepares it for the framework:
 * the flash header set, its cookie deleted, the refused unsubscribe page's status.
 */
export async function answerBeforePage(
  req: IncomingMessage,
  res: FrontResponse,
  options: { moved: MovedLocation; secure: boolean },
): Promise<boolean> {
  const url = req.url ?? '/';
  const queryAt = url.indexOf('?');
  const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
  const search = queryAt < 0 ? '' : url.slice(queryAt);
  if (!PAGE_PATH.test(pathname)) return false;

  if (env().AUTH_CHECK_REDIRECT && !isExemptFromAuthRedirect(pathname)) {
    if (!(await userFromHeaders(webHeaders(req)))) return redirect(res, 307, AUTH_REDIRECT_TARGET);
  }
  const moved = await movedPage(req.method, pathname, search, options.moved);
  if (moved) return redirect(res, 301, moved);

  const taken = isPageLoad(req.headers) ? cookieValue(req.headers.cookie, FLASH_COOKIE) : undefined;
  // Only what encodeFlash writes: a forged `%00` or `あ` is no header value (a 500 on every page).
  if (taken !== undefined && FLASH_VALUE.test(taken)) req.headers[FLASH_HEADER] = taken;
  if (taken !== undefined)
    res.appendHeader(
      'set-cookie',
      setCookieValue(FLASH_COOKIE, '', { maxAgeSeconds: 0, secure: options.secure }),
    );
  if (pathname === UNSUBSCRIBE_PATH) {
    const token = new URLSearchParams(search).get('token');
    if (!verifyUnsubscribeToken(token)) res.pageStatus = 400;
  }
  return false;
}

/** The 301 of a renamed item's old URL (query kept), or of a list filtered by one, or null. */
async function movedPage(
  method: string | undefined,
  pathname: string,
  search: string,
  moved: MovedLocation,
): Promise<string | null> {
  if (method !== 'GET' && method !== 'HEAD') return null;
  try {
    return await moved(pathname, search);
  } catch (error) {
    // The page itself answers (its 404, or the outage page): a redirect is no reason to fail.
    console.error('[front] redirect lookup failed:', error);
    return null;
  }
}

/** A redirect to a path of this site, as the framework answered its proxy's (the path as body). */
function redirect(res: FrontResponse, status: 301 | 307, location: string): true {
  res.writeHead(status, { location, 'content-type': 'text/plain; charset=utf-8' });
  res.end(location);
  return true;
}
