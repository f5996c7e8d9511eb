import 'server-only';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { isApiRoute } from './api-routes';

/**
 * Requests the front server refuses before Next.js (or the content API) sees them, because the
 * framework answers them with a 500, or worse: `new Request()` throws on TRACE/CONNECT/TRACK,
 * which left a content API request unanswered with an uncaught exception. Pure functions of the
 * method, URL and headers, so every case is a unit test.
 */

/**
 * What the site serves; anything else never reaches a handler. Any other method is answered
 * 405: Node's parser refuses a token it does not know (400) before the listener, so every
 * method that gets here is a registered one (WebDAV's PROPFIND, QUERY, TRACE…) that no resource
 * here allows. Not 501: a malformed request is the client's error and never a 5xx.
 */
export const SERVED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Methods that send something: pages take none of them (a page would render for a PUT). */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Where a POST (or PUT, PATCH, DELETE) may go. The site has no server actions (`'use server'` appears nowhere under
 * src), so a POST to a page is never meant: Next.js would try it as one and fail with a 500.
 * Add a prefix here if a page ever takes a form post or an action.
 */
export const POST_PREFIXES: readonly string[] = ['/api/', '/billing-sandbox/'];

/**
 * Pages whose URL also takes a POST, and the API route that answers it: the newsletter's
 * unsubscribe link, which RFC 8058 one-click posts to as it stands in the List-Unsubscribe
 * header (src/server/features/newsletter/unsubscribe-http.ts). The query is kept.
 */
const PAGE_POSTS: ReadonlyMap<string, string> = new Map([
  ['/newsletter/unsubscribe', '/api/newsletter/unsubscribe'],
]);

/** The URL a request is served at: a POST to a page in PAGE_POSTS goes to its route. */
export function servedUrl(method: string | undefined, url: string): string {
  if ((method ?? 'GET').toUpperCase() !== 'POST') return url;
  const [path = '', ...query] = url.split('?');
  const route = PAGE_POSTS.get(path);
  return route ? [route, ...query].join('?') : url;
}

/** Next.js's own ceiling for the router state header (parseAndValidateFlightRouterState). */
export const ROUTER_STATE_MAX_LENGTH = 20 * 2000;
/**
 * Nesting of the decoded router state. Each route level adds two (a tuple holding an object);
 * real trees are a few dozen deep. Bounded so that validating it cannot exhaust the stack.
 */
const ROUTER_STATE_MAX_DEPTH = 200;

export type GuardRefusal = {
  status: 400 | 404 | 405;
  message: string;
  headers: Record<string, string>;
};

const ALLOW = SERVED_METHODS.join(', ');

const DYNAMIC_PARAM_TYPES = new Set([
  'c',
  'ci(..)(..)',
  'ci(.)',
  'ci(..)',
  'ci(...)',
  'oc',
  'd',
  'di(..)(..)',
  'di(.)',
  'di(..)',
  'di(...)',
]);
const REFRESH_MARKERS = new Set(['refetch', 'inside-shared-layout', 'metadata-only']);

const isString = (v: unknown): v is string => typeof v === 'string';
// superstruct's `object`-ish check (record): any non-null object, arrays included.
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** Next's `segmentSchema`: a string, or [name, cacheKey, paramType, siblings | null]. */
function isSegment(v: unknown): boolean {
  if (isString(v)) return true;
  return (
    Array.isArray(v) &&
    v.length === 4 &&
    isString(v[0]) &&
    isString(v[1]) &&
    isString(v[2]) &&
    DYNAMIC_PARAM_TYPES.has(v[2]) &&
    (v[3] === null || (Array.isArray(v[3]) && v[3].every(isString)))
  );
}

/**
 * Next's `flightRouterStateSchema`: [segment, {parallelRoute: state}, [url, refresh]?,
 * refresh marker?, number?, string?], the optional ones also null (JSON has no undefined).
 */
function isRouterState(v: unknown, depth: number): boolean {
  if (depth > ROUTER_STATE_MAX_DEPTH) return false;
  if (!Array.isArray(v) || v.length < 2 || v.length > 6) return false;
  const [segment, children, url, refresh, number, text] = v as unknown[];
  if (!isSegment(segment) || !isObject(children)) return false;
  if (
    url != null &&
    !(Array.isArray(url) && url.length === 2 && isString(url[0]) && isString(url[1]))
  )
    return false;
  if (refresh != null && !(isString(refresh) && REFRESH_MARKERS.has(refresh))) return false;
  if (number != null && typeof number !== 'number') return false;
  if (v.length > 5 && !isString(text)) return false;
  return Object.values(children).every((child) => isRouterState(child, depth + 2));
}

/** Whether a Next-Router-State-Tree value is one Next.js's parser accepts (URI-encoded JSON). */
export function isValidRouterState(value: string): boolean {
  if (value.length > ROUTER_STATE_MAX_LENGTH) return false;
  let state: unknown;
  try {
    state = JSON.parse(decodeURIComponent(value));
  } catch {
    return false;
  }
  return isRouterState(state, 1);
}

const pathOf = (url: string) => url.split('?', 1)[0] ?? '';

/**
 * The refusal of a request the site must not pass on, or null for one it serves. `postPrefixes`:
 * where a POST may go (`npm run dev` adds the framework's development endpoints).
 */
export function refusalFor(
  request: { method?: string; url?: string; headers: IncomingHttpHeaders },
  postPrefixes: readonly string[] = POST_PREFIXES,
): GuardRefusal | null {
  const method = (request.method ?? 'GET').toUpperCase();
  // `*` (asterisk form) and `http://host/path` (absolute form): the framework answered 500 to
  // the one and redirected to the other's host. The site serves paths only.
  if (!(request.url ?? '/').startsWith('/'))
    return { status: 400, message: 'URLの形式が正しくありません。', headers: {} };
  if (!SERVED_METHODS.includes(method))
    return { status: 405, message: 'この方法では利用できません。', headers: { allow: ALLOW } };
  const state = request.headers['next-router-state-tree'];
  // Node joins a repeated header with ", ", which no valid state survives (Next refuses it too).
  if (state !== undefined && !isValidRouterState(Array.isArray(state) ? state.join(',') : state))
    return { status: 400, message: 'リクエストヘッダーの形式が正しくありません。', headers: {} };
  if (
    WRITE_METHODS.has(method) &&
    !postPrefixes.some((prefix) => pathOf(request.url ?? '/').startsWith(prefix))
  )
    return { status: 400, message: 'このページには送信できません。', headers: {} };
  // An API path no route serves: the framework took a form post there for a server action.
  const path = pathOf(request.url ?? '/');
  if (path.startsWith('/api/') && !isApiRoute(path))
    return { status: 404, message: 'このAPIはありません。', headers: {} };
  return null;
}

/**
 * Answers a refused request and says so; the server's listener returns at once when it does.
 * The connection is closed so that a body the client still sends is never read.
 */
export function refuseBadRequest(
  req: IncomingMessage,
  res: ServerResponse,
  postPrefixes: readonly string[] = POST_PREFIXES,
): boolean {
  const refusal = refusalFor(req, postPrefixes);
  if (!refusal) return false;
  const body = Buffer.from(refusal.message);
  res.writeHead(refusal.status, {
    ...refusal.headers,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    connection: 'close',
  });
  res.end(body);
  return true;
}

/** A path with broken percent-encoding (`/%E0%A4%A`): the framework would answer 500. */
export function isMalformedPath(url: string): boolean {
  try {
    decodeURIComponent(url.split('?', 1)[0] ?? '');
    return false;
  } catch {
    return true;
  }
}
