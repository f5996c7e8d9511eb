import 'server-only';
import { type SQL, and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { cmsContents } from '@/server/platform/db/schema';
import { notFound } from './errors';
import { CONTENT_ID, canExist } from './content-id';
import { onContentChange, recentChanges } from './events';
import { type ContentReads, affects, readsOfListQuery } from './reads';
import { env } from '@/env';
import { TtlCache } from '@/lib/ttl-cache';
import { type EndpointDef, findEndpoint } from '@/lib/cms/model';
import type { FilterNode } from './query/filters';
import {
  type SearchScope,
  reindexInBackground,
  scopeKey,
  searchCondition,
  wholeWordConditions,
} from './search-index';
import { type Order, compileFilter, compileOrders } from './sql-filters';
import { type StoredData, shapeFields } from './values';
import { singleton } from '@/lib/singleton';

/**
 * The built-in content service's storage and rules: reading with microCMS's visibility,
 * reference depth and field selection; writing with its statuses is writes.ts. The HTTP layer
 * (http.ts) only authenticates, parses and maps errors.
 */

export type ContentStatus = 'PUBLISH' | 'DRAFT' | 'PUBLISH_AND_DRAFT' | 'CLOSED';

/** Whether an item of this status is on the site (its published version). */
export const isPublicStatus = (status: string): boolean =>
  status === 'PUBLISH' || status === 'PUBLISH_AND_DRAFT';

/** What a request may see: published versions, one draft by its key, or every draft. */
export type ReadMode =
  { kind: 'published' } | { kind: 'draftKey'; draftKey: string } | { kind: 'allDrafts' };

export type ListQuery = {
  limit: number;
  offset: number;
  orders?: Order[];
  fields?: string[][];
  ids?: string[];
  q?: string;
  /**
   * Which text `q` matches (search-index.ts). Only the site's in-process search sets it; over
   * the API `q` matches the full text, which any key may read anyway. With a scope, the matches
   * where every term is a whole word come first (wholeWordCount), each part in `orders`.
   */
  scope?: SearchScope;
  filters?: FilterNode;
  depth: number;
};

export type ContentItem = Record<string, unknown>;

/** `id IN (…)` with every id bound. */
export function idIn(ids: Iterable<string>): SQL {
  return sql`id IN (${sql.join(
    [...ids].map((id) => sql`${id}`),
    sql`, `,
  )})`;
}

const PUBLISHED = sql`(status IN ('PUBLISH', 'PUBLISH_AND_DRAFT') AND data IS NOT NULL)`;

function effectiveData(mode: ReadMode): SQL {
  switch (mode.kind) {
    case 'published':
      return sql`data`;
    case 'draftKey':
      return sql`(CASE WHEN draft_key = ${mode.draftKey} THEN coalesce(draft_data, data) ELSE data END)`;
    case 'allDrafts':
      return sql`coalesce(draft_data, data)`;
  }
}

function visible(mode: ReadMode): SQL {
  switch (mode.kind) {
    case 'published':
      return PUBLISHED;
    case 'draftKey':
      return sql`(${PUBLISHED} OR (draft_key = ${mode.draftKey} AND status <> 'CLOSED'))`;
    case 'allDrafts':
      return sql`(status <> 'CLOSED' AND coalesce(draft_data, data) IS NOT NULL)`;
  }
}

type Row = {
  id: string;
  data: StoredData | null;
  createdAt: Date;
  updatedAt: Date;
  publishedAt: Date | null;
  revisedAt: Date | null;
  /** True when `data` is the published version (false: a draft never published, or a draft read). */
  isPublishedVersion: boolean;
};

function rowColumns(mode: ReadMode) {
  const data = effectiveData(mode);
  return {
    id: cmsContents.id,
    data: sql<StoredData | null>`${data}`,
    createdAt: cmsContents.createdAt,
    updatedAt: cmsContents.updatedAt,
    publishedAt: cmsContents.publishedAt,
    revisedAt: cmsContents.revisedAt,
    isPublishedVersion: sql<boolean>`(${data} IS NOT DISTINCT FROM data AND data IS NOT NULL)`,
  };
}

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

/** Fetches the items referenced at each level, so rendering needs no further queries. */
async function loadReferences(
  db: Db,
  def: EndpointDef,
  rows: Row[],
  depth: number,
  mode: ReadMode,
) {
  const loaded = new Map<string, Map<string, Row>>(); // endpoint → id → row
  let level: { def: EndpointDef; rows: Row[] }[] = [{ def, rows }];
  const refMode: ReadMode = mode.kind === 'allDrafts' ? mode : { kind: 'published' };
  for (let d = 0; d < depth; d++) {
    const wanted = new Map<string, Set<string>>();
    for (const { def: levelDef, rows: levelRows } of level) {
      for (const field of levelDef.fields) {
        if ((field.kind !== 'relation' && field.kind !== 'relationList') || !field.endpoint)
          continue;
        for (const row of levelRows) {
          const value = row.data?.[field.id];
          const ids = Array.isArray(value)
            ? (value as string[])
            : typeof value === 'string'
              ? [value]
              : [];
          for (const id of ids) {
            if (loaded.get(field.endpoint)?.has(id)) continue;
            const set = wanted.get(field.endpoint) ?? new Set<string>();
            set.add(id);
            wanted.set(field.endpoint, set);
          }
        }
      }
    }
    if (wanted.size === 0) break;
    // One query per level for every referenced endpoint at once.
    const wantedEndpoints = [...wanted].filter(([endpoint]) => findEndpoint(endpoint));
    if (wantedEndpoints.length === 0) break;
    const found = await db
      .select({ ...rowColumns(refMode), endpoint: cmsContents.endpoint })
      .from(cmsContents)
      .where(
        and(
          sql`(${sql.join(
            wantedEndpoints.map(
              ([endpoint, ids]) => sql`(endpoint = ${endpoint} AND ${idIn(ids)})`,
            ),
            sql` OR `,
          )})`,
          visible(refMode),
        ),
      );
    const next: { def: EndpointDef; rows: Row[] }[] = [];
    for (const [endpoint] of wantedEndpoints) {
      const rows = found.filter((row) => row.endpoint === endpoint);
      const map = loaded.get(endpoint) ?? new Map<string, Row>();
      for (const row of rows) map.set(row.id, row);
      loaded.set(endpoint, map);
      next.push({ def: findEndpoint(endpoint)!, rows });
    }
    level = next;
  }
  return loaded;
}

function renderItem(
  def: EndpointDef,
  row: Row,
  level: number,
  depth: number,
  loaded: Map<string, Map<string, Row>>,
): ContentItem {
  const item: ContentItem = def.kind === 'list' ? { id: row.id } : {};
  item.createdAt = iso(row.createdAt);
  item.updatedAt = iso(row.updatedAt);
  if (row.publishedAt && row.isPublishedVersion) item.publishedAt = iso(row.publishedAt);
  if (row.revisedAt && row.isPublishedVersion) item.revisedAt = iso(row.revisedAt);
  const fields = shapeFields(def, row.data ?? {});
  for (const field of def.fields) {
    if ((field.kind !== 'relation' && field.kind !== 'relationList') || !field.endpoint) continue;
    const refDef = findEndpoint(field.endpoint)!;
    const expand = (id: string): ContentItem | null => {
      if (level >= depth) return { id };
      const ref = loaded.get(field.endpoint!)?.get(id);
      return ref ? renderItem(refDef, ref, level + 1, depth, loaded) : null;
    };
    const value = fields[field.id];
    if (field.kind === 'relation')
      fields[field.id] = typeof value === 'string' ? expand(value) : null;
    else
      fields[field.id] = ((value as string[]) ?? [])
        .map(expand)
        .filter((v): v is ContentItem => v !== null);
  }
  return Object.assign(item, fields);
}

/** `fields=title,author.name`: keeps the listed paths, descending into references. */
export function selectFields(value: unknown, paths: string[][]): unknown {
  if (paths.some((p) => p.length === 0)) return value;
  if (Array.isArray(value)) return value.map((v) => selectFields(v, paths));
  if (typeof value !== 'object' || value === null) return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const byKey = new Map<string, string[][]>();
  for (const [head, ...rest] of paths) {
    if (head === undefined) continue;
    byKey.set(head, [...(byKey.get(head) ?? []), rest]);
  }
  for (const [key, rest] of byKey) {
    if (key in source) out[key] = selectFields(source[key], rest);
  }
  return out;
}

/**
 * totalCount by filter: paging, sorting and field selection reuse it. Counting every match is
 * the costly part of a list; published counts only change with content, and a change drops the
 * counts whose filter it may alter (on every instance: src/server/services/cms/events.ts; the 30 s TTL
 * is a backstop).
 */
type Count = { count: number; reads: ContentReads };
const countCaches = singleton('content-count-caches', () => new WeakMap<Db, TtlCache<Count>>());
function countCache(db: Db): TtlCache<Count> {
  let cache = countCaches.get(db);
  if (!cache) {
    const created = new TtlCache<Count>(30_000, 10_000);
    onContentChange((change) => created.deleteWhere(({ reads }) => affects(reads, change)));
    countCaches.set(db, created);
    cache = created;
  }
  return cache;
}

/**
 * Up to this many whole-word matches are read through the token index; more are walked in
 * order (search-index.ts, wholeWordConditions).
 */
const FEW_WHOLE_WORD_MATCHES = 200;

export async function listContents(db: Db, def: EndpointDef, query: ListQuery, mode: ReadMode) {
  const data = effectiveData(mode);
  const conditions: SQL[] = [sql`endpoint = ${def.endpoint}`, visible(mode)];
  if (query.filters) conditions.push(compileFilter(def, data, query.filters));
  if (query.ids?.length) {
    conditions.push(idIn(query.ids));
  }
  // A `q` with nothing left to look for once folded finds nothing, not everything.
  const search = query.q ? (searchCondition(query.q, query.scope) ?? sql`FALSE`) : null;
  if (search) conditions.push(search);
  // Rows indexed by older rules (search-index.ts) are brought up to date by the first search.
  if (search) reindexInBackground(db);
  const where = sql.join(conditions, sql` AND `);

  const orderBy = query.orders?.length
    ? compileOrders(def, data, query.orders)
    : search
      ? // Newest first, as a design magazine's search reads; the published-date index serves it.
        [sql`published_at DESC NULLS LAST`]
      : [sql`created_at DESC`, sql`id DESC`];
  orderBy.push(sql`id ASC`); // ties in a stable order, so paging never repeats or skips

  const countKey = (part: string | null) =>
    mode.kind === 'published' && env().CMS_API_CACHE === 'on'
      ? JSON.stringify([
          def.endpoint,
          query.filters ?? null,
          query.ids ?? null,
          query.q ?? null,
          query.scope ? scopeKey(query.scope) : null,
          part,
        ])
      : null;
  const reads = readsOfListQuery(def.endpoint, query);
  const countOf = async (condition: SQL, key: string | null) => {
    const cached = key ? countCache(db).get(key)?.count : undefined;
    if (cached !== undefined) return cached;
    const since = recentChanges.seq;
    const [countRow] = await db
      .select({ count: sql<number>`count(*)::int` })
      .from(cmsContents)
      .where(condition);
    const count = Number(countRow?.count ?? 0);
    // A count taken across a change that may alter it is answered, not kept.
    if (key && !recentChanges.since(since, (change) => affects(reads, change)))
      countCache(db).set(key, { count, reads });
    return count;
  };
  const totalCount = await countOf(where, countKey(null));
  const rowsOf = (condition: SQL, limit: number, offset: number) =>
    db
      .select(rowColumns(mode))
      .from(cmsContents)
      .where(condition)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset);

  // The site search: whole-word matches first (search-index.ts), in two ordered reads, each
  // served as one without ranking is, rather than ranking every match before the first page.
  const wholeWords =
    query.scope && query.q && query.limit > 0 ? wholeWordConditions(query.q, query.scope) : null;
  const wholeWordCount = wholeWords
    ? await countOf(sql`${where} AND ${wholeWords.lookup}`, countKey('whole'))
    : undefined;
  const rankedRows = async (whole: { lookup: SQL; each: SQL; others: SQL }, best: number) => {
    const { limit, offset } = query;
    // All or none of the matches are whole words (most searches for one word): one read.
    if (best === 0 || best === totalCount) return rowsOf(where, limit, offset);
    const first =
      offset < best
        ? await rowsOf(
            sql`${where} AND ${best <= FEW_WHOLE_WORD_MATCHES ? whole.lookup : whole.each}`,
            Math.min(limit, best - offset),
            offset,
          )
        : [];
    const rest = limit - first.length;
    const after =
      rest > 0
        ? await rowsOf(sql`${where} AND ${whole.others}`, rest, Math.max(0, offset - best))
        : [];
    return [...first, ...after];
  };
  const rows =
    query.limit === 0
      ? []
      : wholeWords && wholeWordCount !== undefined
        ? await rankedRows(wholeWords, wholeWordCount)
        : await rowsOf(where, query.limit, query.offset);
  const loaded = await loadReferences(db, def, rows, query.depth, mode);
  const contents = rows.map((row) => {
    const item = renderItem(def, row, 0, query.depth, loaded);
    return query.fields?.length ? (selectFields(item, query.fields) as ContentItem) : item;
  });
  return {
    contents,
    totalCount,
    offset: query.offset,
    limit: query.limit,
    ...(wholeWordCount === undefined ? {} : { wholeWordCount }),
  };
}

/** One item (list endpoints) or the object (object endpoints, id ''). 404 when not visible. */
export async function getContent(
  db: Db,
  def: EndpointDef,
  id: string,
  query: { depth: number; fields?: string[][] },
  mode: ReadMode,
): Promise<ContentItem> {
  if (!canExist(def, id)) throw notFound();
  const [row] = await db
    .select(rowColumns(mode))
    .from(cmsContents)
    .where(and(eq(cmsContents.endpoint, def.endpoint), eq(cmsContents.id, id), visible(mode)))
    .limit(1);
  if (!row) throw notFound();
  const loaded = await loadReferences(db, def, [row], query.depth, mode);
  const item = renderItem(def, row, 0, query.depth, loaded);
  return query.fields?.length ? (selectFields(item, query.fields) as ContentItem) : item;
}

/** The draft key of an item with an unpublished version, for staff preview. */
export async function findDraftKey(db: Db, endpoint: string, id: string): Promise<string | null> {
  if (id !== '' && !CONTENT_ID.test(id)) return null;
  const [row] = await db
    .select({ draftKey: cmsContents.draftKey })
    .from(cmsContents)
    .where(and(eq(cmsContents.endpoint, endpoint), eq(cmsContents.id, id)));
  return row?.draftKey ?? null;
}
