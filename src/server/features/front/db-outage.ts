import 'server-only';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { env } from '@/env';
import { databaseAvailable } from '@/server/platform/db/availability';
import { OUTAGE_PAGE_CSP, outagePage } from './outage-page';

/**
 * The front server while the database is down (src/server/platform/db/availability.ts): pages get the
 * Japanese 503 page and the API a 503 JSON at once, without a render that could only fail;
 * /api/health and /api/metrics still answer through their handlers (they say so themselves),
 * static files are still served, and the page cache may still answer its readers (server.ts).
 * A request that fails mid-render because the database went away ends as the same 503, as long
 * as its headers have not been sent.
 */

/** How long a client or a proxy should wait before trying again, in seconds. */
const RETRY_AFTER_SECONDS = '5';

export const OUTAGE_MESSAGE =
  'ただいまサービスに接続できません。しばらくしてから、もう一度お試しください。';

/** Answered by their own handlers whatever the database's state. */
const OPERATOR_ENDPOINTS = /^\/api\/(?:health|metrics)\/?$/;
/** Files that need no database: the framework's build output and the site's public files. */
const STATIC_FILES =
  /^\/_next\/(?:static|image)\/?|^\/(?!api\/)(?:[^?]*\/)?[^/?]+\.(?:ico|png|svg|jpe?g|webp|avif|gif|css|js|map|woff2?|txt|webmanifest)$/i;

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?', 1)[0] ?? '/';

/** Whether a request is served as usual while the database is down. */
export function servedDuringOutage(req: IncomingMessage): boolean {
  const path = pathOf(req);
  return OPERATOR_ENDPOINTS.test(path) || STATIC_FILES.test(path);
}

/** The 503 for a request: JSON for the API, the page for everything else. */
function outageAnswerFor(req: IncomingMessage): { headers: OutgoingHttpHeaders; body: string } {
  const api = pathOf(req).startsWith('/api/');
  const body = api ? JSON.stringify({ message: OUTAGE_MESSAGE }) : outagePage(env().SITE_NAME);
  return {
    body,
    headers: {
      'content-type': api ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      'retry-after': RETRY_AFTER_SECONDS,
      ...(api ? {} : { 'content-security-policy': OUTAGE_PAGE_CSP }),
    },
  };
}

/** Answers the 503 (the headers already set on `res`, the security headers, are kept). */
export function answerOutage(req: IncomingMessage, res: ServerResponse): void {
  const { headers, body } = outageAnswerFor(req);
  res.writeHead(503, headers);
  res.end(body);
}

/**
 * Before a request is handled: while the database is down, answers the 503 and returns true,
 * unless the request is served anyway or `cachedPageMayAnswer` (the page cache gets its
 * chance, and answers the 503 itself on a miss). Otherwise guards the answer and returns false.
 */
export function answeredForOutage(
  req: IncomingMessage,
  res: ServerResponse,
  options: { cachedPageMayAnswer: boolean; available?: () => boolean },
): boolean {
  const available = options.available ?? databaseAvailable;
  if (OPERATOR_ENDPOINTS.test(pathOf(req))) return false;
  if (!available() && !options.cachedPageMayAnswer && !STATIC_FILES.test(pathOf(req))) {
    answerOutage(req, res);
    return true;
  }
  guardAnswer(req, res, available);
  return false;
}

type Callback = (error?: Error | null) => void;

/**
 * Turns a 500 written while the database is down (the framework's error page, or the server's
 * own "Internal Server Error") into the 503 answer, provided nothing was sent yet: the headers
 * set so far are kept (the security headers), the handler's own ones and its body dropped.
 * Wraps writeHead, write and end, so that a copy kept of the body (the page cache) sees the
 * handler's writes, and the response its 503 whichever of them sends the headers.
 */
export function guardAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  available: () => boolean = databaseAvailable,
): void {
  const kept = new Set(res.getHeaderNames());
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let body: string | null = null;
  let ended = false;

  const replaced = (status: number): boolean => {
    if (body !== null) return true;
    if (status !== 500 || res.headersSent || available()) return false;
    for (const name of res.getHeaderNames()) if (!kept.has(name)) res.removeHeader(name);
    const answer = outageAnswerFor(req);
    writeHead(503, answer.headers);
    body = answer.body;
    return true;
  };
  const callbackIn = (args: unknown[]) =>
    args.find((arg): arg is Callback => typeof arg === 'function');

  res.writeHead = (status: number, ...rest: unknown[]) =>
    replaced(status) ? res : writeHead(status, ...rest);
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (!replaced(res.statusCode)) return write(chunk, ...rest);
    const callback = callbackIn(rest);
    if (callback) process.nextTick(callback);
    return true;
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    if (!replaced(res.statusCode)) return end(...args);
    const callback = callbackIn(args);
    // A second end with a body would be an error event on the response: end once.
    const chunk = ended ? undefined : body;
    ended = true;
    return callback ? end(chunk, callback) : end(chunk);
  }) as typeof res.end;
}
