import 'server-only';
import { singleton } from '@/lib/singleton';
import { type ContentReads, emptyReads, mergeReads } from '@/server/services/cms/reads';
import { type RequestContext, currentRequest } from '@/server/platform/http/request-context';
import type { Audience } from './audience';

/**
 * What the render of a page found out, for the front server's page cache
 * (docs/decisions/007-pages-per-audience.md, 044-purge-what-a-change-showed.md). The front
 * server opens a record for a request whose page it may keep; the render notes into the record
 * of the request it runs in (src/server/platform/http/request-context.ts), so no client can name one:
 * - the audience the access policy rendered for, and "personal" when anything read the user
 *   themself (a name, an e-mail) or the page is no audience's (a preview, a gift). The cache
 *   stores an answer only under the audience its render noted, so a stale audience cookie or a
 *   cookie the cache read differently can never file a page where another audience is served it;
 * - what it read of the content, so that a change purges only the pages that showed it;
 * - the metered wall's line it showed, from the front server's meter (noteMeter): its entry is
 *   filed only under the key of that very line (docs/decisions/055-metered-wall.md).
 */
export type RenderRecord = {
  audience: Audience | null;
  personal: boolean;
  reads: ContentReads;
  meter: string | null;
};

/** Kept by the request's context: gone with it, and found only by code running inside it. */
const records = singleton('render-records', () => new WeakMap<RequestContext, RenderRecord>());

/** Opens the record of the render of `request`'s page. */
export function openRenderRecord(request: RequestContext): RenderRecord {
  const record: RenderRecord = {
    audience: null,
    personal: false,
    reads: emptyReads(),
    meter: null,
  };
  records.set(request, record);
  return record;
}

function recordUnderWay(): RenderRecord | undefined {
  const request = currentRequest();
  return request && records.get(request);
}

/**
 * Whether the render under way is of a page the front server serves to this one request alone
 * (no record: never kept, so it may show the viewer's own facts, such as their billing notice).
 * False outside a request (a build's prerender) and for a page the cache may keep.
 */
export function rendersForOneReader(): boolean {
  return currentRequest() !== undefined && recordUnderWay() === undefined;
}

/**
 * The render showed what `audience` sees; two different audiences in one render are personal,
 * except that a free member's render the metered wall opened is the `metered` audience's.
 */
export function noteAudience(audience: Audience | null): void {
  const record = recordUnderWay();
  if (!record) return;
  const refines = (a: Audience | null, b: Audience) => a === 'member' && b === 'metered';
  if (audience === null) record.personal = true;
  else if (refines(record.audience, audience)) record.audience = audience;
  else if (refines(audience, record.audience ?? 'anonymous')) return;
  else if (record.audience !== null && record.audience !== audience) record.personal = true;
  else record.audience = audience;
}

/**
 * The render showed the metered wall's line `line` (the front server's decision, by its key
 * part); a render showing two lines is personal.
 */
export function noteMeter(line: string): void {
  const record = recordUnderWay();
  if (!record) return;
  if (record.meter !== null && record.meter !== line) record.personal = true;
  else record.meter = line;
}

/** The render read something of one user: its answer is theirs alone. */
export function notePersonal(): void {
  const record = recordUnderWay();
  if (record) record.personal = true;
}

/**
 * Notes what a read read into the render under way, if any: worked out only then, since most
 * reads (staff pages, previews, every request outside the page cache) have no record.
 */
export function noteContentReads(reads: () => ContentReads): void {
  const record = recordUnderWay();
  if (record) mergeReads(record.reads, reads());
}
