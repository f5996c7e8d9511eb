import { type NextRequest, NextResponse } from 'next/server';
import { env } from '@/env';
import { AUTH_REDIRECT_TARGET, isExemptFromAuthRedirect } from '@/lib/auth-redirect';
import { FLASH_COOKIE } from '@/server/platform/http/cookies';
import { FLASH_HEADER } from '@/lib/http/flash';
import { userFromHeaders } from '@/server/features/identity/session-user';
import {
  UNSUBSCRIBE_PATH,
  verifyUnsubscribeToken,
} from '@/server/features/profiles/newsletter-consent';
import { movedLocation } from '@/server/services/cms/redirects';
import { getDb } from '@/server/platform/db/client';

/**
 * Runs before every page (Node.js runtime). Four jobs, nothing else:
 * - AUTH_CHECK_REDIRECT=true: an anonymous visitor gets a 307 to /about before any HTML
 *   (SPEC §2). The session is checked against the database, so an expired or forged cookie
 *   counts as anonymous. Pages still check access themselves (docs/decisions/000-design-baseline.md
 *   "Conventions").
 * - A one-time form message (src/lib/http/flash.ts) moves from its cookie into a request
 *   header for this page view, and the cookie is deleted. Only a page load takes it: the
 *   router's prefetches and RSC requests, which may be in flight when the cookie arrives,
 *   would otherwise spend it on a page no one is looking at.
 * - The newsletter's unsubscribe page answers 400 for a token that does not verify (the page
 *   explains it): a page cannot set its own status.
 * - A renamed item's old URL answers 301 to its new one, and so does a list filtered by a renamed
 *   tag or feature (`/posts?tag=old`; docs/decisions/033-slugs-and-redirects.md): a page cannot
 *   answer 301 either (the framework's permanent redirect is a 308).
 */
export async function proxy(request: NextRequest): Promise<NextResponse> {
  const { pathname } = request.nextUrl;
  if (env().AUTH_CHECK_REDIRECT && !isExemptFromAuthRedirect(pathname)) {
    const user = await userFromHeaders(request.headers);
    if (!user) return NextResponse.redirect(new URL(AUTH_REDIRECT_TARGET, request.url), 307);
  }
  const moved = await movedItemPage(request);
  if (moved) return moved;

  const headers = new Headers(request.headers);
  headers.delete(FLASH_HEADER); // only ever from our own cookie
  const taken = isPageLoad(request) ? request.cookies.get(FLASH_COOKIE)?.value : undefined;
  // Only what encodeFlash writes: a forged `%00` or `あ` is no header value (a 500 on every page).
  const flash = taken && FLASH_VALUE.test(taken) ? taken : undefined;
  if (flash) headers.set(FLASH_HEADER, flash);
  const refused =
    pathname === UNSUBSCRIBE_PATH &&
    !verifyUnsubscribeToken(request.nextUrl.searchParams.get('token'));
  const response = NextResponse.next({ request: { headers }, ...(refused ? { status: 400 } : {}) });
  if (taken) response.cookies.delete(FLASH_COOKIE);
  return response;
}

/** The 301 of a renamed item's old URL (query kept), or of a list filtered by one, or null. */
async function movedItemPage(request: NextRequest): Promise<NextResponse | null> {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  try {
    const { pathname, search } = request.nextUrl;
    const to = await movedLocation(getDb, pathname, search);
    return to ? NextResponse.redirect(new URL(to, request.url), 301) : null;
  } catch (error) {
    // The page itself answers (its 404, or the outage page): a redirect is no reason to fail.
    console.error('[proxy] redirect lookup failed:', error);
    return null;
  }
}

/** A flash cookie as encodeFlash (src/lib/http/flash.ts) writes it: base64url, bounded. */
const FLASH_VALUE = /^[A-Za-z0-9_-]{1,8000}$/;

/** A browser loading a page as a document (not the router fetching a segment or prefetching). */
export function isPageLoad(request: Request): boolean {
  const dest = request.headers.get('sec-fetch-dest');
  if (dest) return dest === 'document';
  return !request.headers.has('rsc') && !request.headers.has('next-router-prefetch');
}

export const config = {
  // Pages only: not the framework's files, and no API (an API handler reads its own body,
  // bounded while streaming; through the proxy the framework would buffer it first, and an API
  // answers for itself rather than redirecting to /about). The billing sandbox stands for a
  // third party's site: none of this applies to it.
  matcher: ['/((?!_next/static|_next/image|api/|billing-sandbox/).*)'],
};
