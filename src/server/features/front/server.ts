import 'server-only';
import http from 'node:http';
import path from 'node:path';
import type { Socket } from 'node:net';
import next from 'next';
import { boot } from '@/server/boot';
import { env } from '@/env';
import { handleContentApi } from '@/server/services/cms/http';
import { serveBillingSandbox } from '@/server/features/billing';
import { onContentChange, recentChanges } from '@/server/services/cms/events';
import { affects, emptyReads, hasReads, trackContentReads } from '@/server/services/cms/reads';
import { openRenderRecord, RENDER_HEADER } from '@/server/features/audience';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';
import { clientAddress } from '@/server/platform/rate-limit/client-address';
import { REQUEST_TIMEOUT_MS } from '@/server/platform/http/read-body';
import { sendWebResponse, toWebRequest } from './node-bridge';
import { refuseBadRequest, servedUrl } from './request-guard';
import { settleUnreadBody } from './unread-body';
import { PageCache, cacheablePath, capturePage, pageKey, sendCachedPage } from './page-cache';
import { requestAudience } from './request-audience';
import { answerPrivately, isGiftRequest } from './gift-answer';
import { SharedRenders } from './shared-render';
import { pageRefresher } from './page-refresh';
import { SHUTDOWN_GRACE_MS, onShutdown } from '@/server/platform/lifecycle/shutdown';
import { closeGracefully } from './graceful-close';
import { adoptBuiltNextConfig } from './built-config';
import { pagePolicies, prerenderedScriptHashes, withPagePolicy } from './csp';
import { securityHeaders } from '@/lib/security-headers';
import { countPageCache, timeRequest } from '@/server/features/metrics';
import { databaseAvailable } from '@/server/platform/db/availability';
import { getDb } from '@/server/platform/db/client';
import { answerLetterVisit, hasLetterParam } from '@/server/features/newsletter';
import { answerOutage, answeredForOutage } from './db-outage';
import { withRequestId } from '@/server/platform/logging/logger';
import { logAnswer, requestIdFor } from '@/server/platform/logging/request-log';

/**
 * The production server: a plain Node http server in front of Next.js. Requests it can answer
 * without the framework (the content API, a JSON API that renders nothing) go straight to their
 * handler, which saves the framework's per-request cost (docs/decisions/002-content-service.md);
 * everything else is Next.js's. `next dev` serves the same API through its route handlers
 * (src/app/api/v1).
 */

const CONTENT_API = /^\/api\/v1\/([^/?]+)(?:\/([^/?]+))?\/?(?:\?|$)/;
/** The billing sandbox (a stand-in for a third party's API and pages): never the framework's. */
const SANDBOX_PREFIX = '/billing-sandbox/';

/** A path with broken percent-encoding (`/%E0%A4%A`): the framework would answer 500. */
function isMalformedPath(url: string): boolean {
  try {
    decodeURIComponent(url.split('?', 1)[0] ?? '');
    return false;
  } catch {
    return true;
  }
}

function failed(req: http.IncomingMessage, res: http.ServerResponse, error: unknown): void {
  console.error('[server] request failed:', req.method, req.url, error);
  if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
  res.end('Internal Server Error');
}

export type SiteServer = { server: http.Server; close: () => Promise<void> };

/** How long an idle kept-alive connection stays open: past the 60 s of common proxies. */
export const KEEP_ALIVE_MS = 65_000;

export async function serveSite(options: {
  dir: string;
  port: number;
  hostname?: string;
}): Promise<SiteServer> {
  adoptBuiltNextConfig(options.dir);
  const app = next({
    dev: false,
    dir: options.dir,
    port: options.port,
    hostname: options.hostname,
  });
  await boot(); // settings, database, migrations, demo content: before the port opens
  await app.prepare();
  const frameworkHandler = app.getRequestHandler();
  const origin = `http://${options.hostname ?? 'localhost'}:${options.port}`;

  const { TRUST_PROXY, PAGE_CACHE, SITE_URL } = env();
  const secure = SITE_URL.startsWith('https:');
  // Every render gets a fresh CSP nonce; a prerendered page, its scripts' hashes (csp.ts).
  const nextHandler = withPagePolicy(
    frameworkHandler,
    pagePolicies({
      secure,
      gtmId: env().GTM_ID,
      prerenderedHashes: prerenderedScriptHashes(path.join(options.dir, '.next')),
    }),
  );
  const pages = new PageCache();
  const renders = new SharedRenders();
  onContentChange((change) => pages.purge(change));

  /**
   * A content page (docs/decisions/007-pages-per-audience.md): from the cache of its audience, or
   * rendered by the framework and kept when the render noted that same audience and nothing
   * personal, with what it read of the content (docs/decisions/044-purge-what-a-change-showed.md).
   */
  async function servePage(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    refresh: boolean,
  ): Promise<void> {
    const decided = await requestAudience(req, { secure });
    if (!decided.cache) {
      if (!databaseAvailable()) return answerOutage(req, res); // a render would need it
      if (decided.setCookie) res.appendHeader('set-cookie', decided.setCookie);
      return nextHandler(req, res);
    }
    const key = pageKey(req, decided.audience);
    // The server's own request renewing a page renders it whatever the cache holds.
    if (!refresh) {
      const encoding = req.headers['accept-encoding'];
      let found = pages.find(key, encoding);
      // The same page being rendered for another reader right now: wait for it and look again.
      if (!found && (await renders.waitFor(key))) found = pages.find(key, encoding);
      // The previous version, before a change that did not narrow access or past its TTL:
      // served while the server renews it for the readers who come next.
      if (found?.stale && !renders.underway(key)) refresher.refresh(req, renders.start(key));
      if (!found) countPageCache('miss');
      else {
        const state = found.stale ? 'stale' : 'hit';
        countPageCache(state);
        return sendCachedPage(found.page, req, res, decided.setCookie, state);
      }
    }
    if (!databaseAvailable()) return answerOutage(req, res); // served from the cache only

    const since = recentChanges.seq;
    const reads = emptyReads();
    const render = openRenderRecord();
    req.headers[RENDER_HEADER] = render.id;
    res.once('close', render.close);
    // A refresh's key was marked as rendering by the request that started it.
    if (!refresh) res.once('close', renders.start(key));
    if (decided.setCookie) res.appendHeader('set-cookie', decided.setCookie);
    capturePage(
      res,
      (page) => {
        const noted = render.close();
        const sameAudience = noted.audience === null || noted.audience === decided.audience;
        // A change while it rendered that touched what it read: it may show either version.
        const overtaken = recentChanges.since(since, (change) => affects(reads, change));
        if (!noted.personal && sameAudience && !overtaken && req.method === 'GET')
          pages.store(key, { ...page, reads: hasReads(reads) ? reads : null });
      },
      decided.setCookie,
    );
    return trackContentReads(reads, () => nextHandler(req, res));
  }
  const headers = securityHeaders(secure);
  const handle = (req: http.IncomingMessage, res: http.ServerResponse, requestId: string) => {
    // Before anything can answer: refusals, cached pages and the API carry them too.
    for (const { key, value } of headers) res.setHeader(key, value);
    res.setHeader('x-request-id', requestId);
    const startedAt = performance.now();
    const answered = timeRequest(req.method ?? 'GET', req.url ?? '/');
    res.once('close', () => {
      answered(res.statusCode);
      logAnswer(req, res.statusCode, startedAt, requestId);
    });
    // The client's address for rate limits and the audit log; never what a client claims.
    req.headers[CLIENT_IP_HEADER] = clientAddress(
      req.socket.remoteAddress,
      req.headers['x-forwarded-for'],
      TRUST_PROXY,
    );
    req.url = servedUrl(req.method, req.url ?? '/'); // a page's URL that also takes a POST
    if (refuseBadRequest(req, res)) return; // methods, headers and posts that would be a 500
    settleUnreadBody(req, res); // a body refused half-read must not hold the connection
    const url = req.url ?? '/';
    if (isMalformedPath(url)) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('URLの形式が正しくありません。');
      return;
    }
    // A post opened from a newsletter: counted, then the same address without the letter's
    // parameter, before the page cache sees it (src/server/features/newsletter/opens.ts).
    if ((req.method === 'GET' || req.method === 'HEAD') && hasLetterParam(url)) {
      answerLetterVisit(req, res, { db: getDb }).catch((error: unknown) => failed(req, res, error));
      return;
    }
    // The database down: a Japanese 503 at once; up: a 500 it causes becomes that 503.
    const mayBeCached = PAGE_CACHE === 'on' && cacheablePath(req) !== null;
    if (answeredForOutage(req, res, { cachedPageMayAnswer: mayBeCached })) return;
    const match = CONTENT_API.exec(url);
    // Only the server names a render (src/server/features/audience/render-audience.ts) or a refresh.
    delete req.headers[RENDER_HEADER];
    const refresh = refresher.isRefresh(req);
    if (!match && PAGE_CACHE === 'on' && cacheablePath(req)) {
      servePage(req, res, refresh).catch((error: unknown) => failed(req, res, error));
      return;
    }
    if (isGiftRequest(req)) answerPrivately(res); // never cached above, nor by anyone after
    if (url.startsWith(SANDBOX_PREFIX)) {
      serveBillingSandbox(toWebRequest(req, origin))
        .then((response) => sendWebResponse(response, res))
        .catch((error: unknown) => failed(req, res, error));
      return;
    }
    const handled = match
      ? handleContentApi(
          toWebRequest(req, origin),
          decodeURIComponent(match[1]!),
          match[2] === undefined ? undefined : decodeURIComponent(match[2]),
        ).then((response) => sendWebResponse(response, res))
      : nextHandler(req, res);
    handled.catch((error: unknown) => failed(req, res, error));
  };
  // Every line logged while a request is handled names it (src/server/platform/logging).
  const server = http.createServer((req, res) => {
    const requestId = requestIdFor(req, TRUST_PROXY);
    withRequestId(requestId, () => handle(req, res, requestId));
  });
  const refresher = pageRefresher(server);
  // An idle kept-alive connection is closed by whoever waits less: the server waits longer
  // than a proxy's or client's pool (nginx and load balancers keep 60 s), so it never closes
  // one just as they send a request on it (a reset, or a 502 at the proxy).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  // The whole request, body included (Node's default, named: a body that stops arriving is
  // answered 400 by its reader after BODY_IDLE_MS, well before this drops the connection).
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  // CONNECT never reaches the listener above: Node would just drop the socket.
  server.on('connect', (_req: http.IncomingMessage, socket: Socket) => {
    const lines = headers.map(({ key, value }) => `${key}: ${value}\r\n`).join('');
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\n${lines}Connection: close\r\nContent-Length: 0\r\n\r\n`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => resolve());
  });
  // First on shutdown: stop taking requests and let those in flight finish.
  onShutdown('http server', () => closeGracefully(server, SHUTDOWN_GRACE_MS));
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
