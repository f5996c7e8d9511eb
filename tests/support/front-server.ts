import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { securityHeaders } from '@/lib/security-headers';
import { onContentChange } from '@/server/services/cms/events';
import { pagePolicies } from '@/server/features/front/csp';
import { createFrontServer } from '@/server/features/front/front-response';
import type { PageCache } from '@/server/features/front/page-cache';
import { pageRefresher } from '@/server/features/front/page-refresh';
import { type Site, handleRequest } from '@/server/features/front/pipeline';
import { POST_PREFIXES } from '@/server/features/front/request-guard';
import { SharedRenders } from '@/server/features/front/shared-render';

export type TestFrontServer = { base: string; stop: () => Promise<void> };

/**
 * The front server's pipeline on a real socket, before `framework` (a page rendered by the
 * test), with `pages` purged by content changes as the server's own boot wires it: for tests of
 * what a page's cache serves to whom.
 */
export async function startFrontServer(
  framework: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  pages: PageCache | null,
  /** What a test stands in for beyond the framework: renamed items' redirects, stored files. */
  more: Partial<Pick<Site, 'moved' | 'files'>> = {},
): Promise<TestFrontServer> {
  const server = createFrontServer();
  const site: Site = {
    framework,
    headers: securityHeaders(false),
    policies: pagePolicies({ secure: false, prerenderedHashes: [] }),
    pages,
    renders: new SharedRenders(),
    refresher: pageRefresher(server),
    secure: false,
    trustProxy: false,
    postPrefixes: POST_PREFIXES,
    origin: 'http://localhost',
    moved: () => Promise.resolve(null),
    ...more,
  };
  server.on('request', (req, res) => handleRequest(site, req, res));
  const stopPurging = pages ? onContentChange((change) => pages.purge(change)) : () => undefined;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: () => {
      stopPurging();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
