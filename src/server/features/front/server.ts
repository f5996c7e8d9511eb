import 'server-only';
import type http from 'node:http';
import path from 'node:path';
import type { Socket } from 'node:net';
import next from 'next';
import { boot } from '@/server/boot';
import { env } from '@/env';
import { onContentChange } from '@/server/services/cms/events';
import { movedLocation } from '@/server/services/cms/redirects';
import { episodeFileAnswer } from '@/server/features/podcast';
import { gaugeOnScrape } from '@/server/features/metrics';
import { getDb } from '@/server/platform/db/client';
import { REQUEST_TIMEOUT_MS } from '@/server/platform/http/read-body';
import { SHUTDOWN_GRACE_MS, onShutdown } from '@/server/platform/lifecycle/shutdown';
import { securityHeaders } from '@/lib/security-headers';
import { adoptBuiltNextConfig } from './built-config';
import { pagePolicies, prerenderedScriptHashes } from './csp';
import { createFrontServer } from './front-response';
import { closeGracefully } from './graceful-close';
import { PageCache } from './page-cache';
import { pageRefresher } from './page-refresh';
import { type Site, handleRequest } from './pipeline';
import { POST_PREFIXES } from './request-guard';
import { SharedRenders } from './shared-render';

/**
 * The site's server: a plain Node http server in front of Next.js, serving every request through
 * one pipeline (pipeline.ts). `npm start` runs it on the production build; `npm run dev` runs it
 * on the framework's development server (scripts/dev.ts), where the differences are the ones
 * docs/decisions/046-one-request-pipeline.md names: the development page policy, the framework's
 * development endpoints, and the page cache off unless PAGE_CACHE=on.
 */

export type SiteServer = { server: http.Server; close: () => Promise<void> };

/** How long an idle kept-alive connection stays open: past the 60 s of common proxies. */
export const KEEP_ALIVE_MS = 65_000;

/** The framework's development endpoints (its error overlay, its editor links): dev only. */
const DEVELOPMENT_ENDPOINTS = '/__nextjs';

export async function serveSite(options: {
  dir: string;
  port: number;
  hostname?: string;
  /** The framework's development server (hot reload) instead of the production build. */
  dev?: boolean;
}): Promise<SiteServer> {
  const dev = options.dev === true;
  if (!dev) adoptBuiltNextConfig(options.dir);
  const app = next({ dev, dir: options.dir, port: options.port, hostname: options.hostname });
  await boot(); // settings, database, migrations, demo content: before the port opens
  await app.prepare();

  const { TRUST_PROXY, PAGE_CACHE, SITE_URL, GTM_ID } = env();
  const secure = SITE_URL.startsWith('https:');
  const pages = PAGE_CACHE === 'on' ? new PageCache() : null;
  if (pages) {
    onContentChange((change) => pages.purge(change));
    gaugeOnScrape('page_cache_bytes', 'Bytes of the pages the front server holds.', [], (g) =>
      g.set(pages.heldBytes),
    );
    gaugeOnScrape('page_cache_entries', 'Pages the front server holds.', [], (g) =>
      g.set(pages.size),
    );
  }
  const server = createFrontServer();
  const site: Site = {
    framework: app.getRequestHandler(),
    headers: securityHeaders(secure),
    // Every render gets a fresh CSP nonce; a prerendered page, its scripts' hashes (csp.ts).
    policies: pagePolicies({
      secure,
      gtmId: GTM_ID,
      prerenderedHashes: dev ? [] : prerenderedScriptHashes(path.join(options.dir, '.next')),
      development: dev,
    }),
    pages,
    renders: new SharedRenders(),
    refresher: pageRefresher(server),
    secure,
    trustProxy: TRUST_PROXY,
    postPrefixes: dev ? [...POST_PREFIXES, DEVELOPMENT_ENDPOINTS] : POST_PREFIXES,
    origin: `http://${options.hostname ?? 'localhost'}:${options.port}`,
    moved: (pathname, search) => movedLocation(getDb, pathname, search),
    files: (url) => episodeFileAnswer(url),
  };
  server.on('request', (req, res) => handleRequest(site, req, res));
  // An idle kept-alive connection is closed by whoever waits less: the server waits longer
  // than a proxy's or client's pool (nginx and load balancers keep 60 s), so it never closes
  // one just as they send a request on it (a reset, or a 502 at the proxy).
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  // The whole request, body included (Node's default, named: a body that stops arriving is
  // answered 400 by its reader after BODY_IDLE_MS, well before this drops the connection).
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  // CONNECT never reaches the pipeline: Node would just drop the socket.
  server.on('connect', (_req: http.IncomingMessage, socket: Socket) => {
    const lines = site.headers.map(({ key, value }) => `${key}: ${value}\r\n`).join('');
    socket.end(
      `HTTP/1.1 405 Method Not Allowed\r\n${lines}Connection: close\r\nContent-Length: 0\r\n\r\n`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.hostname, () => resolve());
  });
  // The development server's hot reload keeps a websocket open per browser tab: they are ended
  // at shutdown, or it would wait for every open tab.
  const upgraded = new Set<Socket>();
  if (dev)
    server.on('upgrade', (_req: http.IncomingMessage, socket: Socket) => {
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
    });
  // First on shutdown: stop taking requests and let those in flight finish.
  onShutdown('http server', () => {
    for (const socket of upgraded) socket.destroy();
    return closeGracefully(server, SHUTDOWN_GRACE_MS);
  });
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
