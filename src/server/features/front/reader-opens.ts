import 'server-only';
import type { IncomingMessage } from 'node:http';
import { isBotUserAgent } from '@/server/platform/http/user-agent';
import { isPageLoad } from './page-requests';

/**
 * Whether a request is a reader opening a post's page, the only request that may spend a
 * metered read (docs/decisions/055-metered-wall.md): a GET (never HEAD) of `/posts/{id}` loaded
 * as a document (isPageLoad: the rule the one-time message follows), by a browser, and not a
 * prefetch or prerender of any kind. The router's RSC requests, navigations included, never
 * count: the page they get offers 「全文を読む」, a page load.
 */
const POST_PAGE = /^\/posts\/([^/?#]+)\/?(?:\?|$)/;

/** The post id of a post's own page (`/posts/{id}`, not what is under it), or null. */
export function postPageId(url: string): string | null {
  const id = POST_PAGE.exec(url)?.[1];
  if (id === undefined) return null;
  try {
    return decodeURIComponent(id);
  } catch {
    return null;
  }
}

export function countsAsRead(req: IncomingMessage): boolean {
  const h = req.headers;
  if (req.method !== 'GET' || postPageId(req.url ?? '') === null) return false;
  if (!isPageLoad(h) || h.rsc !== undefined) return false;
  if (h['next-router-prefetch'] !== undefined || h['next-router-segment-prefetch'] !== undefined)
    return false;
  const purpose = `${String(h['sec-purpose'] ?? '')} ${String(h.purpose ?? '')}`;
  if (/prefetch|prerender/i.test(purpose)) return false;
  return !isBotUserAgent(h['user-agent']);
}
