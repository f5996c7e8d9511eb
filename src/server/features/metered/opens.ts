import 'server-only';
import { singleton } from '@/lib/singleton';
import { type RequestContext, currentRequest } from '@/server/platform/http/request-context';

/**
 * Which requests may spend a metered read (docs/decisions/055-metered-wall.md): the front
 * server's pipeline decides it from the request (`countsAsRead` in
 * src/server/features/front/reader-opens.ts: a page load by a browser, never a prefetch, an RSC
 * request, a HEAD or a bot) and notes it here, by the request's context, as the render record
 * is kept. No header a client sends can claim it; outside the front server nothing counts.
 */
const opens = singleton('metered-opens', () => new WeakSet<RequestContext>());

/** The front server: this request is a reader opening the page. */
export function noteReaderOpens(request: RequestContext): void {
  opens.add(request);
}

/** Whether the render under way is of a page a reader opened (may spend a read). */
export function readerOpensPage(): boolean {
  const request = currentRequest();
  return request !== undefined && opens.has(request);
}
