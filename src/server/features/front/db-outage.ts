import 'server-only';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { env } from '@/env';
import { NON_PAGE_POLICY } from '@/lib/security-headers';
import { databaseAvailable } from '@/server/platform/db/availability';
import { OUTAGE_PAGE_CSP, outagePage } from './outage-page';

/**
 * The front server while the database is down (src/server/platform/db/availability.ts): pages get the
 * Japanese 503 page and the API a 503 JSON at once, without a render that could only fail;
 * /api/health and /api/metrics still answer through their handlers (they say so themselves),
 * static files are still served, and the page cache may still answer its readers (pipeline.ts).
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

export type OutageAnswer = { headers: OutgoingHttpHeaders; body: string };

/** The 503 for a request: JSON for the API, the page for everything else. */
function outageAnswerFor(req: IncomingMessage): OutageAnswer {
  const api = pathOf(req).startsWith('/api/');
  const body = api ? JSON.stringify({ message: OUTAGE_MESSAGE }) : outagePage(env().SITE_NAME);
  return {
    body,
    headers: {
      'content-type': api ? 'application/json; charset=utf-8' : 'text/html; charset=utf-8',
      'content-length': String(Buffer.byteLength(body)),
      'cache-control': 'no-store',
      'retry-after': RETRY_AFTER_SECONDS,
      // The JSON's own, whatever policy a render was given before the database went away.
      'content-security-policy': api ? NON_PAGE_POLICY : OUTAGE_PAGE_CSP,
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
 * Whether the 503 answers a request at once: the database is down, and the request is neither
 * served anyway nor one the page cache may answer (`cachedPageMayAnswer`: it answers the 503
 * itself on a miss).
 */
export function answersAtOnce(
  req: IncomingMessage,
  options: { cachedPageMayAnswer: boolean; available?: () => boolean },
): boolean {
  const available = options.available ?? databaseAvailable;
  return !available() && !options.cachedPageMayAnswer && !servedDuringOutage(req);
}

/**
 * What turns a 500 written while the database is down (the framework's error page, or the
 * server's own "Internal Server Error") into the 503 answer, provided nothing was sent yet: the
 * headers set so far are kept (the security headers), the handler's own ones and its body
 * dropped. src/server/features/front/front-response.ts does it as the answer is written.
 */
export type OutageGuard = {
  /** The names of the headers set before the handler ran. */
  kept: ReadonlySet<string>;
  available: () => boolean;
  answer: () => OutageAnswer;
};

/** The guard of a request's answer; none for the operator endpoints: they answer for themselves. */
export function outageGuard(
  req: IncomingMessage,
  res: ServerResponse,
  available: () => boolean = databaseAvailable,
): OutageGuard | null {
  if (OPERATOR_ENDPOINTS.test(pathOf(req))) return null;
  return { kept: new Set(res.getHeaderNames()), available, answer: () => outageAnswerFor(req) };
}
