import 'server-only';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleContentApi } from '@/server/services/cms/http';
import { serveBillingSandbox } from '@/server/features/billing';
import { recentChanges } from '@/server/services/cms/events';
import { changedSince, hasReads } from '@/server/services/cms/reads';
import { openRenderRecord } from '@/server/features/audience';
import { noteReaderOpens } from '@/server/features/metered';
import { type RequestContext, inRequest } from '@/server/platform/http/request-context';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';
import { clientAddress } from '@/server/platform/rate-limit/client-address';
import { countPageCache, timeRequest } from '@/server/features/metrics';
import { databaseAvailable } from '@/server/platform/db/availability';
import { getDb } from '@/server/platform/db/client';
import {
  answerLetterTracking,
  answerLetterVisit,
  hasLetterParam,
  isTrackingPath,
} from '@/server/features/newsletter';
import { logAnswer, requestIdFor } from '@/server/platform/logging/request-log';
import { type PagePolicies, givePagePolicy } from './csp';
import { answerOutage, answersAtOnce, outageGuard } from './db-outage';
import type { FrontResponse } from './front-response';
import { isGiftRequest } from './gift-answer';
import { sendWebResponse, streamWebResponse, toWebRequest } from './node-bridge';
import { type MovedLocation, answerBeforePage } from './page-requests';
import {
  type PageCache,
  PageCopy,
  cacheablePath,
  pageKey,
  sendCachedPage,
  takesCompression,
} from './page-cache';
import type { PageRefresher } from './page-refresh';
import { meteredAudience } from './metered-page';
import { countsAsRead } from './reader-opens';
import { type RequestAudience, requestAudience } from './request-audience';
import { isMalformedPath, refuseBadRequest, servedUrl } from './request-guard';
import type { SharedRenders } from './shared-render';

/**
 * The front server's request path, in order (docs/decisions/046-one-request-pipeline.md): every
 * request meets the stages in STAGES one after another. Each is a plain function of the request
 * and its context that either answers (ANSWERED) or passes the request on (NEXT). The context is
 * the request's one per-request context (src/server/platform/http/request-context.ts): the stages run
 * inside it, so the framework's render and the log find it too. What must happen while a handler
 * writes its answer is set on the response here and done by FrontResponse (front-response.ts),
 * in the order written there. `npm start` and `npm run dev` both serve through it (server.ts).
 */

/** What every request shares: made once by serveSite (server.ts). */
export type Site = {
  /** The framework's request handler. */
  framework: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** The site's headers, set on every answer before anything can answer. */
  headers: readonly { key: string; value: string }[];
  policies: PagePolicies;
  /** The cache of content pages per audience; null with PAGE_CACHE=off. */
  pages: PageCache | null;
  renders: SharedRenders;
  refresher: PageRefresher;
  secure: boolean;
  trustProxy: boolean;
  /** The paths a POST (PUT, PATCH, DELETE) may go to (request-guard.ts). */
  postPrefixes: readonly string[];
  /** This server's own origin, for the handlers written against the fetch API. */
  origin: string;
  /** Where a renamed item's page has moved (the content service's redirects). */
  moved: MovedLocation;
  /**
   * Stored files answered outside the framework, which drops a route handler's
   * Content-Length: the handler for a request's path, or null when the path is none of them.
   */
  files?: (url: string) => ((request: Request) => Promise<Response>) | null;
};

/** One request as the stages see it: the one per-request context. */
export type FrontContext = RequestContext & {
  readonly site: Site;
  readonly res: FrontResponse;
  readonly startedAt: number;
  /** The server's own request renewing a page (page-refresh.ts): rendered whatever is cached. */
  readonly refresh: boolean;
  /** For a content page the cache may hold: which audience's page it is (request-audience.ts). */
  audience: RequestAudience | null;
};

const ANSWERED = true;
const NEXT = false;
type Stage = (req: IncomingMessage, ctx: FrontContext) => boolean | Promise<boolean>;

/** The stages, in the order every request meets them. */
const STAGES: readonly Stage[] = [
  answerHeaders, // the site's headers and the request id on every answer; counted, logged
  forwardRequest, // our x-axis-* request headers are ours alone; the client's address
  guard, // what the framework would answer with a 500, or worse
  letterVisit, // a post opened from a newsletter: counted, then redirected
  outage, // the database down: the 503 at once, or a 500 turned into it
  letterTracking, // a letter's click redirect and open pixel (/nl/…)
  giftAnswer, // a gift link's answer is its reader's alone
  billingSandbox, // a stand-in for a third party: never the framework's
  contentApi, // /api/v1: the content service, without the framework's cost
  storedFile, // a podcast episode's file, streamed with its length
  cachedPage, // a content page from the cache of its audience
  beforePage, // a page redirected (signed out, renamed), or its one-time message handed on
  readerOpens, // a post page a reader opens: what alone may spend a metered read
  render, // the framework renders, with a fresh page policy (and a copy for the cache)
];

/** Serves one request: its context first, then the stages inside it. */
export function handleRequest(site: Site, req: IncomingMessage, res: FrontResponse): void {
  const ctx: FrontContext = {
    requestId: requestIdFor(req, site.trustProxy),
    site,
    res,
    startedAt: performance.now(),
    refresh: site.refresher.isRefresh(req),
    audience: null,
  };
  inRequest(ctx, () => {
    runStages(req, ctx).catch((error: unknown) => failed(req, res, error));
  });
}

async function runStages(req: IncomingMessage, ctx: FrontContext): Promise<void> {
  for (const stage of STAGES) {
    const answered = stage(req, ctx);
    // Only a stage that has to wait is waited for: most requests reach the framework at once.
    if (answered === ANSWERED || (answered !== NEXT && (await answered))) return;
  }
}

function failed(req: IncomingMessage, res: ServerResponse, error: unknown): void {
  console.error('[server] request failed:', req.method, req.url, error);
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('Internal Server Error');
}

/** Before anything can answer: refusals, cached pages and the API carry them too. */
function answerHeaders(req: IncomingMessage, { site, res, requestId, startedAt }: FrontContext) {
  for (const { key, value } of site.headers) res.setHeader(key, value);
  res.setHeader('x-request-id', requestId);
  const answered = timeRequest(req.method ?? 'GET', req.url ?? '/');
  res.once('close', () => {
    answered(res.statusCode);
    logAnswer(req, res.statusCode, startedAt, requestId);
  });
  return NEXT;
}

/**
 * The request as the application gets it. Request headers named `x-axis-*` are the server's:
 * any a client sent are dropped. The one it sets is the client's address, for rate limits and
 * the audit log (the socket's, or behind a trusted proxy the address it forwards), never what a
 * client claims: the framework's handlers are functions of a Request, and this is how the
 * address reaches them (src/server/platform/http/request-origin.ts).
 */
function forwardRequest(req: IncomingMessage, { site }: FrontContext) {
  for (const name of Object.keys(req.headers))
    if (name.startsWith('x-axis-')) delete req.headers[name];
  req.headers[CLIENT_IP_HEADER] = clientAddress(
    req.socket.remoteAddress,
    req.headers['x-forwarded-for'],
    site.trustProxy,
  );
  return NEXT;
}

/** Methods, URLs, headers and posts that would be a 500 are refused (request-guard.ts). */
function guard(req: IncomingMessage, { site, res }: FrontContext) {
  req.url = servedUrl(req.method, req.url ?? '/'); // a page's URL that also takes a POST
  if (refuseBadRequest(req, res, site.postPrefixes)) return ANSWERED;
  if (isMalformedPath(req.url)) {
    res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('URLの形式が正しくありません。');
    return ANSWERED;
  }
  return NEXT;
}

/**
 * A post opened from a newsletter: counted, then the same address without the letter's
 * parameter, before the page cache sees it (src/server/features/newsletter/opens.ts).
 */
function letterVisit(req: IncomingMessage, { res }: FrontContext) {
  const url = req.url ?? '/';
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !hasLetterParam(url)) return NEXT;
  return answerLetterVisit(req, res, { db: getDb });
}

/** A letter's click redirect or open pixel (src/server/features/newsletter/tracking.ts). */
function letterTracking(req: IncomingMessage, { res }: FrontContext) {
  if (!isTrackingPath(req.url ?? '/')) return NEXT;
  return answerLetterTracking(req, res, { db: getDb }).then(() => ANSWERED);
}

/** A content page the page cache may answer: its path, or null. */
const cachedPath = (req: IncomingMessage, site: Site) => (site.pages ? cacheablePath(req) : null);

/** The database down: a Japanese 503 at once; up: a 500 it causes becomes that 503. */
function outage(req: IncomingMessage, { site, res }: FrontContext) {
  const cachedPageMayAnswer = cachedPath(req, site) !== null;
  if (answersAtOnce(req, { cachedPageMayAnswer })) {
    answerOutage(req, res);
    return ANSWERED;
  }
  res.outage = outageGuard(req, res);
  return NEXT;
}

/** A gift link's answer: never cached (cacheablePath), nor by anyone after. */
function giftAnswer(req: IncomingMessage, { res }: FrontContext) {
  res.forOneReader = isGiftRequest(req);
  return NEXT;
}

/** The billing sandbox (a stand-in for a third party's API and pages). */
function billingSandbox(req: IncomingMessage, { site, res }: FrontContext) {
  if (!(req.url ?? '/').startsWith('/billing-sandbox/')) return NEXT;
  return serveBillingSandbox(toWebRequest(req, site.origin))
    .then((response) => sendWebResponse(response, res))
    .then(() => ANSWERED);
}

const CONTENT_API = /^\/api\/v1\/([^/?]+)(?:\/([^/?]+))?\/?(?:\?|$)/;

/**
 * The content API straight to its handler, which saves the framework's per-request cost
 * (docs/decisions/002-content-service.md); the framework serves the same API through its route
 * handlers (src/app/api/v1) only when this server is not in front of it.
 */
function contentApi(req: IncomingMessage, { site, res }: FrontContext) {
  const match = CONTENT_API.exec(req.url ?? '/');
  if (!match) return NEXT;
  const request = toWebRequest(req, site.origin);
  const contentId = match[2] === undefined ? undefined : decodeURIComponent(match[2]);
  return handleContentApi(request, decodeURIComponent(match[1]!), contentId)
    .then((response) => sendWebResponse(response, res))
    .then(() => ANSWERED);
}

/**
 * A stored file a podcast app fetches: streamed with its Content-Length (a HEAD too), which
 * podcast apps read for the episode's size and which the framework leaves out.
 */
function storedFile(req: IncomingMessage, { site, res }: FrontContext) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return NEXT;
  const answer = site.files?.(req.url ?? '/');
  if (!answer) return NEXT;
  return answer(toWebRequest(req, site.origin))
    .then((response) => streamWebResponse(response, req, res))
    .then(() => ANSWERED);
}

/**
 * A content page (docs/decisions/007-pages-per-audience.md) from the cache of its audience. The
 * previous version of a page (after a change that did not narrow access, or past its TTL) is
 * served while the server renews it for the readers who come next
 * (docs/decisions/044-purge-what-a-change-showed.md).
 */
function cachedPage(req: IncomingMessage, ctx: FrontContext) {
  return cachedPath(req, ctx.site) === null ? NEXT : lookUpPage(req, ctx);
}

async function lookUpPage(req: IncomingMessage, ctx: FrontContext) {
  const { site, res } = ctx;
  if (!site.pages) return NEXT;
  let audience = (ctx.audience = await requestAudience(req, { secure: site.secure }));
  // A free member's post page, the metered wall on: the meter chooses the entry (decision 055).
  if (audience.cache && audience.meterFor !== undefined)
    audience = ctx.audience = await meteredAudience(
      req,
      ctx,
      audience.meterFor,
      audience.setCookie,
    );
  // The server's own request renewing a page renders it whatever the cache holds.
  if (!audience.cache || ctx.refresh) return NEXT;
  const key = pageKey(req, audience.audience, audience.meter);
  const encoding = req.headers['accept-encoding'];
  // A render of the page under way: its previous version rather than waiting for it.
  let found = site.pages.find(key, encoding, site.renders.underway(key));
  // The same page being rendered for another reader right now: wait for it and look again.
  if (!found && (await site.renders.waitFor(key))) found = site.pages.find(key, encoding);
  if (found?.stale && !site.renders.underway(key))
    site.refresher.refresh(req, site.renders.start(key));
  if (!found) {
    countPageCache('miss');
    return NEXT;
  }
  const state = found.stale ? 'stale' : 'hit';
  countPageCache(state);
  sendCachedPage(found.page, req, res, audience.setCookie, state);
  return ANSWERED;
}

/**
 * What the framework's proxy did (page-requests.ts): the AUTH_CHECK_REDIRECT and renamed items'
 * redirects, the one-time form message into its request header, the refused unsubscribe page's
 * status. After the page cache, as the proxy ran only where the framework rendered.
 */
function beforePage(req: IncomingMessage, { site, res }: FrontContext) {
  return answerBeforePage(req, res, { moved: site.moved, secure: site.secure });
}

/**
 * A reader opening a post's page (a page load by a browser, not a prefetch, an RSC request, a
 * HEAD or the server's own refresh) is the only request whose render may spend a metered read
 * (docs/decisions/055-metered-wall.md). Noted on the context: no header can claim it.
 */
function readerOpens(req: IncomingMessage, ctx: FrontContext) {
  if (!ctx.refresh && countsAsRead(req)) noteReaderOpens(ctx);
  return NEXT;
}

/**
 * Everything else is the framework's, with a fresh page policy (csp.ts). A content page is
 * rendered only while the database is up (the cache alone answers during an outage) and, for
 * an audience, kept when its render noted that same audience and nothing personal, with what it
 * read of the content (src/server/features/audience/render-record.ts).
 */
async function render(req: IncomingMessage, ctx: FrontContext) {
  const { site, res, audience } = ctx;
  if (audience && !databaseAvailable()) {
    answerOutage(req, res);
    return ANSWERED;
  }
  if (audience?.setCookie) res.appendHeader('set-cookie', audience.setCookie);
  if (audience?.cache && site.pages) {
    const { pages, renders } = site;
    const key = pageKey(req, audience.audience, audience.meter);
    const since = recentChanges.seq;
    const begunAt = Date.now();
    const record = openRenderRecord(ctx);
    // A refresh's key was marked as rendering by the request that started it.
    if (!ctx.refresh) res.once('close', renders.start(key));
    res.copy = new PageCopy((page) => {
      // A metered entry: only a render that showed that very audience and line (decision 055).
      const sameAudience = audience.meter
        ? record.audience === audience.audience && record.meter === audience.meter
        : (record.audience === null || record.audience === audience.audience) &&
          record.meter === null;
      if (record.personal || !sameAudience || req.method !== 'GET') return;
      // A change while it rendered that touched what it read: it may show either version. After
      // an edit of public fields it is still newer than what the cache holds: kept as the
      // previous version, served while the next render renews it. After a change that narrows
      // what a reader may see it is not kept.
      const changed = changedSince(since, record.reads);
      if (changed === 'narrowed') return;
      const reads = hasReads(record.reads) ? record.reads : null;
      pages.store(key, {
        ...page,
        begunAt,
        reads,
        askedUncompressed: !takesCompression(req.headers['accept-encoding']),
        ...(changed === 'edited' ? { staleSince: Date.now() } : {}),
      });
    }, audience.setCookie);
  }
  res.pagePolicy = givePagePolicy(req, res, site.policies);
  await site.framework(req, res);
  return ANSWERED;
}
