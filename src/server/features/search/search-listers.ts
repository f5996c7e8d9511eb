import 'server-only';
import { SEARCHABLE_KINDS, findEndpoint } from '@/lib/cms/model';
import { z } from '@/lib/zod';
import { parseListQuery } from '@/server/services/cms/query/params';
import {
  type SearchScope,
  readingPairsOf,
  searchableText,
  textMatches,
  viewOf,
} from '@/server/services/cms/search-index';
import type { ReadingPair } from '@/server/services/cms/search/words';
import { listContents } from '@/server/services/cms/store';
import {
  CONTENT_PAGE_SIZE,
  type ContentClient,
  type ContentQueries,
  serializeContentQueries,
  siteContent,
  usesBuiltInContent,
} from '@/server/features/content';
import { type Db, getDb } from '@/server/platform/db/client';
import { SEARCH_PAGE_SIZE, type SearchType } from './search-request';
import { type Doc, type Reader, SOURCES, dateOf } from './search-sources';

/**
 * Where the site search's queries run: on the built-in content service in process (the
 * content store's public list query, matched on the index's text the viewer's scope allows),
 * or through a hosted service's API, whose matches are checked here against what the viewer may
 * read. Reads a page of a type, a type's count, the keys of its first matches, or found items
 * by id.
 */

export type Client = Pick<ContentClient, 'get'>;

/**
 * Where the search runs. With `db` (the built-in service) queries run in process on the
 * index's open or full text; without it, through `client` (a hosted microCMS), checked here.
 */
export type SearchSource = { client: Client; db?: Db };

/** The site's source: the built-in service in process, or the configured hosted one. */
export async function siteSearchSource(): Promise<SearchSource> {
  return { client: siteContent(), db: usesBuiltInContent() ? await getDb() : undefined };
}

type ListQueries = {
  q?: string;
  filters?: string;
  limit: number;
  offset?: number;
  orders?: string;
  fields: string;
  ids?: string[];
};
type ListAnswer = {
  contents: unknown[];
  totalCount: number;
  /** The first this many matches have every term as a whole word (the built-in service ranks). */
  wholeWordCount?: number;
  /** The count is a lower bound: only the first matches of a hosted service were checked. */
  atLeast?: boolean;
};
type Lister = (type: SearchType, queries: ListQueries) => Promise<ListAnswer>;

const listAnswer = z.object({
  contents: z.array(z.unknown()),
  totalCount: z.number().int().nonnegative(),
});
const keyItem = z.object({
  id: z.string(),
  createdAt: z.string(),
  publishedAt: z.string().optional(),
});

/**
 * A found item's place in its type's order (whole-word matches first, then newest first):
 * enough to merge the types.
 */
export type SearchKey = { type: SearchType; id: string; date: string; whole?: boolean };

const NEWEST_FIRST = '-publishedAt';

/** The built-in service in process: `q` matches the text each type's scope allows. */
export function builtInLister(db: Db, scopes: Record<SearchType, SearchScope>): Lister {
  return async (type, queries) => {
    const def = findEndpoint(SOURCES[type].endpoint)!;
    const params = new URLSearchParams(serializeContentQueries(queries));
    // No references are shown: depth 0 saves their queries.
    const query = { ...parseListQuery(params), depth: 0, scope: scopes[type] };
    const answer = await listContents(db, def, query, { kind: 'published' });
    return {
      contents: answer.contents,
      totalCount: answer.totalCount,
      wholeWordCount: answer.wholeWordCount,
    };
  };
}

/** How the kanji of found items read, by id, from the text each type's scope matches. */
export type ReadingsOf = (type: SearchType, ids: string[]) => Promise<Map<string, ReadingPair[]>>;

/** The built-in service's stored readings (a hosted service has none). */
export function builtInReadings(db: Db, scopes: Record<SearchType, SearchScope>): ReadingsOf {
  return (type, ids) => readingPairsOf(db, SOURCES[type].endpoint, ids, scopes[type]);
}

/** Matches of a hosted service checked per viewer: at most this many per type and search. */
export const HOSTED_CHECKED_MATCHES = 300;

/**
 * A service over its API matches `q` on whole items. For a type the viewer does not read whole,
 * its first matches are read with their text and kept only when every term occurs in what the
 * policy gives this viewer; counts and pages come from the kept ones (a lower bound when there
 * were more matches than were checked).
 */
export function checkedLister(
  client: Client,
  scopes: Record<SearchType, SearchScope>,
  who: Reader,
): Lister {
  const checked = new Map<string, Promise<{ items: unknown[]; atLeast: boolean }>>();
  const readChecked = async (type: SearchType, q: string, filters: string | undefined) => {
    const def = findEndpoint(SOURCES[type].endpoint)!;
    const textFields = def.fields.filter((f) => SEARCHABLE_KINDS.includes(f.kind)).map((f) => f.id);
    const fields = [
      ...new Set([...SOURCES[type].fields.split(','), 'isPublicPreview', ...textFields]),
    ].join(',');
    const items: unknown[] = [];
    let totalCount = 0;
    let offset = 0;
    while (offset < HOSTED_CHECKED_MATCHES) {
      const limit = Math.min(CONTENT_PAGE_SIZE, HOSTED_CHECKED_MATCHES - offset);
      const answer = await client.get({
        endpoint: def.endpoint,
        queries: {
          q,
          limit,
          offset,
          orders: NEWEST_FIRST,
          fields,
          ...(filters ? { filters } : {}),
        },
        schema: z.object({
          contents: z.array(z.record(z.string(), z.unknown())),
          totalCount: z.number().int().nonnegative(),
        }),
      });
      totalCount = answer.totalCount;
      for (const item of answer.contents) {
        const readable = viewOf(def, who.viewer, item, who.freePlanPostIds);
        if (textMatches(searchableText(def, readable), q)) items.push(item);
      }
      offset += limit;
      if (answer.contents.length < limit || offset >= totalCount) break;
    }
    return { items, atLeast: totalCount > offset };
  };
  return async (type, queries) => {
    const { q } = queries;
    if (!q || scopes[type].kind === 'full') {
      return client.get({
        endpoint: SOURCES[type].endpoint,
        queries: queries satisfies ContentQueries,
        schema: listAnswer,
      });
    }
    const key = `${type}\u0000${q}\u0000${queries.filters ?? ''}`;
    let pending = checked.get(key);
    if (!pending) {
      pending = readChecked(type, q, queries.filters);
      checked.set(key, pending);
    }
    const { items, atLeast } = await pending;
    const offset = queries.offset ?? 0;
    return {
      contents: items.slice(offset, offset + queries.limit),
      totalCount: items.length,
      atLeast,
    };
  };
}

/** One search's queries, for one viewer. */
export type Search = {
  list: Lister;
  /** How found kanji read, to mark what a kana term found; absent for a hosted service. */
  readings?: ReadingsOf;
  reader: Reader;
  /** The moment of the search, for filters that depend on the day (open job listings). */
  now: Date;
  /** Types whose count is a lower bound. */
  atLeast: Set<SearchType>;
};

async function list(search: Search, type: SearchType, queries: ListQueries) {
  const filters = SOURCES[type].filters?.(search.now);
  const answer = await search.list(type, filters ? { ...queries, filters } : queries);
  if (answer.atLeast) search.atLeast.add(type);
  return answer;
}

export async function countOf(search: Search, type: SearchType, q: string): Promise<number> {
  const answer = await list(search, type, { q, limit: 0, fields: 'id' });
  return answer.totalCount;
}

export async function readPage(
  search: Search,
  type: SearchType,
  q: string,
  page: number,
): Promise<{ docs: Doc[]; totalCount: number }> {
  const answer = await list(search, type, {
    q,
    limit: SEARCH_PAGE_SIZE,
    offset: (page - 1) * SEARCH_PAGE_SIZE,
    orders: NEWEST_FIRST,
    fields: SOURCES[type].fields,
  });
  return {
    docs: SOURCES[type].read(listAnswer.parse(answer).contents, search.reader),
    totalCount: answer.totalCount,
  };
}

/**
 * The first `wanted` matches of a type in its order (whole words first, newest first), as keys
 * (in pages of 100, as microCMS allows).
 */
export async function readKeys(
  search: Search,
  type: SearchType,
  q: string,
  wanted: number,
): Promise<{ keys: SearchKey[]; totalCount: number }> {
  const keys: SearchKey[] = [];
  let totalCount = 0;
  for (let offset = 0; offset < wanted;) {
    const limit = Math.min(CONTENT_PAGE_SIZE, wanted - offset);
    const answer = await list(search, type, {
      q,
      limit,
      offset,
      orders: NEWEST_FIRST,
      fields: 'id,createdAt,publishedAt',
    });
    const contents = z.array(keyItem).parse(answer.contents);
    totalCount = answer.totalCount;
    const whole = answer.wholeWordCount ?? 0;
    contents.forEach((item, i) =>
      keys.push({ type, id: item.id, date: dateOf(item), whole: offset + i < whole }),
    );
    offset += limit;
    if (contents.length < limit || offset >= totalCount) break;
  }
  return { keys, totalCount };
}

/** Items already found, by id: no `q` (their match was decided by the viewer's search). */
export async function readByIds(search: Search, type: SearchType, ids: string[]): Promise<Doc[]> {
  if (ids.length === 0) return [];
  const answer = await list(search, type, {
    ids,
    limit: ids.length,
    fields: SOURCES[type].fields,
  });
  return SOURCES[type].read(listAnswer.parse(answer).contents, search.reader);
}
