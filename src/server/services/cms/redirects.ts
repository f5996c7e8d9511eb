import 'server-only';
import { and, eq, inArray } from 'drizzle-orm';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { cmsRedirects } from '@/server/platform/db/schema';
import { ITEM_PATH_PREFIXES } from '@/lib/cms/item-paths';
import { singleton } from '@/lib/singleton';
import { TtlCache } from '@/lib/ttl-cache';
import { CONTENT_ID } from './content-id';
import { badRequest } from './errors';
import { type ContentChange, onContentChange, recentChanges } from './events';

/**
 * The old ids of renamed items (docs/decisions/033-slugs-and-redirects.md). Their rows only
 * ever name an id no item has and an item that exists: renaming collapses chains and drops the
 * row of the id taken back, an item published under an old id takes it (an unpublished one is
 * refused it), deleting an item drops the rows that led to it. So a redirect never shadows an
 * item, never gives way to a draft, and never loops.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The current id of each of `ids` that an item was renamed from. */
export async function currentIds(
  db: Db | Tx,
  endpoint: string,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ fromId: cmsRedirects.fromId, toId: cmsRedirects.toId })
    .from(cmsRedirects)
    .where(and(eq(cmsRedirects.endpoint, endpoint), inArray(cmsRedirects.fromId, [...ids])));
  return new Map(rows.map((row) => [row.fromId, row.toId]));
}

/**
 * An item has just been given `id` (created, or renamed from `item.renamedFrom`), in `tx`: the
 * redirect that had the id goes when the item takes its own old id back or is published (its
 * page is public at once, and wins); an unpublished item is refused another item's old URL
 * (400 `content-id-redirected`, rolling the write back), which stays that item's until the item
 * is published under it. Asked after the write, so a rename committed meanwhile is seen.
 */
export async function claimId(
  tx: Tx,
  endpoint: string,
  id: string,
  item: { published: boolean; renamedFrom?: string },
): Promise<void> {
  const [redirect] = await tx
    .select({ toId: cmsRedirects.toId })
    .from(cmsRedirects)
    .where(and(eq(cmsRedirects.endpoint, endpoint), eq(cmsRedirects.fromId, id)));
  if (!redirect) return;
  if (!item.published && redirect.toId !== item.renamedFrom)
    throw badRequest(
      'Content id is an old id of another content, redirected to it.',
      'content-id-redirected',
    );
  await tx
    .delete(cmsRedirects)
    .where(and(eq(cmsRedirects.endpoint, endpoint), eq(cmsRedirects.fromId, id)));
}

/** The item is gone: nothing leads to it any more. */
export async function dropRedirectsTo(tx: Tx, endpoint: string, id: string): Promise<void> {
  await tx
    .delete(cmsRedirects)
    .where(and(eq(cmsRedirects.endpoint, endpoint), eq(cmsRedirects.toId, id)));
}

/**
 * The item `from` is now `to`: the old id leads to the new one, and so does every id that led
 * to the old one (one hop, never a chain); an earlier redirect from `to` goes if the item may
 * take it (`claimId`).
 */
export async function redirectRenamed(
  tx: Tx,
  endpoint: string,
  from: string,
  to: string,
  item: { published: boolean; actor: string; now: Date },
): Promise<void> {
  const { actor, now } = item;
  await claimId(tx, endpoint, to, { published: item.published, renamedFrom: from });
  await tx
    .update(cmsRedirects)
    .set({ toId: to })
    .where(and(eq(cmsRedirects.endpoint, endpoint), eq(cmsRedirects.toId, from)));
  await tx
    .insert(cmsRedirects)
    .values({ endpoint, fromId: from, toId: to, createdBy: actor, createdAt: now });
}

/** The old ids that lead to the item, for the console. */
export async function redirectsTo(db: Db, endpoint: string, id: string): Promise<string[]> {
  const rows = await db
    .select({ fromId: cmsRedirects.fromId })
    .from(cmsRedirects)
    .where(and(eq(cmsRedirects.endpoint, endpoint), eq(cmsRedirects.toId, id)))
    .orderBy(cmsRedirects.createdAt);
  return rows.map((row) => row.fromId);
}

/**
 * The ids no item was renamed from, per database: the front server asks for every item page
 * before it renders (src/server/features/front/page-requests.ts), and the answer is nearly
 * always "none". Only a rename makes an id
 * one an item was renamed from (redirectRenamed, the one insert), and renameContent tells it on
 * every instance (src/server/services/cms/events.ts; a gap in the bus tells everything), so a
 * remembered "none" is dropped as the content caches' answers are; 30 s is a backstop. An id
 * that does lead somewhere is asked each time: deleting a draft can drop its redirect untold.
 */
type NotMoved = { endpoint: string; id: string };
const notMovedCaches = singleton('content-not-moved', () => new WeakMap<Db, TtlCache<NotMoved>>());
const tells = (change: ContentChange, { endpoint, id }: NotMoved) =>
  (change.endpoint === '*' || change.endpoint === endpoint) &&
  (change.id === '*' || change.id === id);

function notMovedCache(db: Db): TtlCache<NotMoved> | null {
  if (env().CMS_API_CACHE !== 'on') return null;
  let cache = notMovedCaches.get(db);
  if (!cache) {
    const created = new TtlCache<NotMoved>(30_000, 10_000);
    onContentChange((change) => created.deleteWhere((entry) => tells(change, entry)));
    notMovedCaches.set(db, created);
    cache = created;
  }
  return cache;
}

/** The current id of an item renamed from `id`, or undefined: currentIds, remembered when none. */
async function currentIdOf(
  db: Db | (() => Promise<Db>),
  endpoint: string,
  id: string,
): Promise<string | undefined> {
  const database = typeof db === 'function' ? await db() : db;
  const cache = notMovedCache(database);
  const key = `${endpoint}/${id}`;
  if (cache?.get(key)) return undefined;
  const since = recentChanges.seq;
  const to = (await currentIds(database, endpoint, [id])).get(id);
  const entry = { endpoint, id };
  // Read across a rename of this id: the answer is given, not kept.
  if (to === undefined && !recentChanges.since(since, (change) => tells(change, entry)))
    cache?.set(key, entry);
  return to;
}

/** The item a page path names (`/posts/{id}…`), read as the framework reads it, or null. */
function itemOfPath(pathname: string) {
  for (const [endpoint, prefix] of Object.entries(ITEM_PATH_PREFIXES)) {
    if (!pathname.startsWith(prefix)) continue;
    const rest = pathname.slice(prefix.length);
    const slash = rest.indexOf('/');
    const segment = slash === -1 ? rest : rest.slice(0, slash);
    try {
      const id = decodeURIComponent(segment);
      if (!CONTENT_ID.test(id)) return null;
      // What follows the id stays (`/posts/old/preview`), without a trailing slash.
      return {
        endpoint,
        prefix,
        id,
        tail: slash === -1 ? '' : rest.slice(slash).replace(/\/+$/, ''),
      };
    } catch {
      return null; // broken percent-encoding
    }
  }
  return null;
}

/**
 * Where a page path of a renamed item has moved (path only; the caller keeps the query), or
 * null: one hop to the page itself. The database is only asked for an item page's path.
 */
export async function movedPath(
  db: Db | (() => Promise<Db>),
  pathname: string,
): Promise<string | null> {
  const item = itemOfPath(pathname);
  if (!item) return null;
  const to = await currentIdOf(db, item.endpoint, item.id);
  return to === undefined ? null : `${item.prefix}${encodeURIComponent(to)}${item.tail}`;
}

/**
 * The list pages that filter by an item's id in their query string (`/posts?tag=…`,
 * `/posts?category=…`), by parameter: a renamed tag or feature moves these URLs too.
 */
const LIST_FILTERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '/posts': { tag: 'tags', category: 'categories' },
};

/**
 * Where a list page's URL filtered by a renamed item has moved (path and query, the other
 * parameters kept), or null. The database is only asked when such a parameter is present.
 */
async function movedListQuery(
  db: Db | (() => Promise<Db>),
  pathname: string,
  query: URLSearchParams,
): Promise<string | null> {
  const filters = LIST_FILTERS[pathname.replace(/(?<=.)\/+$/, '')];
  if (!filters) return null;
  const moved = new URLSearchParams(query);
  let changed = false;
  for (const [name, endpoint] of Object.entries(filters)) {
    const id = query.get(name);
    if (id === null || !CONTENT_ID.test(id)) continue;
    const to = await currentIdOf(db, endpoint, id);
    if (to === undefined) continue;
    moved.set(name, to);
    changed = true;
  }
  return changed ? `${pathname}?${moved.toString()}` : null;
}

/**
 * Where a request for a renamed item's page, or for a list filtered by one, has moved (path and
 * query), or null: what the front server answers 301 with.
 */
export async function movedLocation(
  db: Db | (() => Promise<Db>),
  pathname: string,
  /** The query string as asked (`?…`, or empty): kept as it is on an item page. */
  search: string,
): Promise<string | null> {
  const path = await movedPath(db, pathname);
  if (path !== null) return path + search;
  return search ? movedListQuery(db, pathname, new URLSearchParams(search)) : null;
}
