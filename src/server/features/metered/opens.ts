import 'server-only';
import { singleton } from '@/lib/singleton';
import { type RequestContext, currentRequest } from '@/server/platform/http/request-context';
import type { MeteredPost } from './reads';

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

/**
 * What the front server's meter decided before the page cache, for one post
 * (src/server/features/front/metered-page.ts): opened (a read in the database for this reader,
 * post and month) or not, and the count the page shows. Kept by the request's context, as the
 * render record is: only the render of that very request finds it, and no header can claim one.
 */
export type MeterDecision = MeteredPost & { opened: boolean; perMonth: number; left: number };

const decisions = singleton(
  'metered-decisions',
  () => new WeakMap<RequestContext, MeterDecision>(),
);

/** The front server: this request's post was metered so (before the cache). */
export function noteMeterDecision(request: RequestContext, decision: MeterDecision): void {
  decisions.set(request, decision);
}

/**
 * The front server's decision for `post` in the render under way: only for that very post (its
 * id and its creation time, so a re-created id is another post), else null (meter it here).
 */
export function frontMeterDecision(post: MeteredPost): MeterDecision | null {
  const request = currentRequest();
  const decision = request && decisions.get(request);
  if (!decision || decision.id !== post.id || decision.createdAt !== post.createdAt) return null;
  return decision;
}

/**
 * The metered wall's line a decision shows, as a part of the page cache's key: a page is the
 * same for every reader whose meter says the same (opened or not, the allowance, the count
 * left), so it is kept once per line and holds nothing of any one reader.
 */
export const meterLine = (decision: Pick<MeterDecision, 'opened' | 'perMonth' | 'left'>) =>
  `${decision.opened ? 'metered' : 'paywall'}:${decision.perMonth}:${decision.left}`;
