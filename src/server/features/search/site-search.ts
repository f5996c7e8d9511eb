import 'server-only';
import type { AccessLevel } from '@/lib/access/access-label';
import { isAppError } from '@/lib/errors';
import { z } from '@/lib/zod';
import type { Viewer } from '@/lib/access/post-access';
import { getFreePlanPostIds, isContentRequestError } from '@/server/features/content';
import {
  type Client,
  type Search,
  type SearchKey,
  type SearchSource,
  builtInLister,
  builtInReadings,
  checkedLister,
  countOf,
  readByIds,
  readKeys,
  readPage,
} from './search-listers';
import {
  SEARCH_MAX_PAGE,
  SEARCH_PAGE_SIZE,
  SEARCH_TYPES,
  type SearchFilter,
  type SearchRequest,
  type SearchType,
} from './search-request';
import { type Cover, type Doc, type Reader, searchScopes } from './search-sources';
import { type Segment, highlight, queryTerms, snippet } from './snippet';
import type { ReadingPair } from '@/server/services/cms/search/words';

/**
 * The site search (/search): one query over posts, feature issues, audio, movies and jobs
 * through the content service's `q` (Japanese-aware, src/server/services/cms/search-index.ts), with
 * counts per type, a merged list for "all", paging and highlighted snippets. Items where every
 * term is a whole word come first (紙 or 神 for かみ before 温かみ), each part newest first; a kana
 * term marks the kanji it found by their reading (docs/decisions/042-search-by-reading.md).
 *
 * A viewer finds only what they could have found by reading
 * (docs/decisions/018-one-access-policy.md): where the policy gives them less than an item's whole
 * text, only its open part (title, description, lead) is matched, otherwise a search is an oracle
 * for the closed part ("does the paid body contain X?", one character at a time). On the built-in
 * service the query runs in process on the index's open text; against a service over its API (a
 * hosted microCMS) the hits are checked against the text the viewer may read. Results therefore
 * depend on the viewer's audience (anonymous, free member, paid member, staff) and nothing else:
 * the free-plan list is the same for every free member. Snippets quote only what the viewer may
 * read. Connect pages are members-only and not searched at all.
 */

/** One found item, ready for the page: plain data, highlighted as segments. */
export type SearchHit = {
  type: SearchType;
  id: string;
  href: string;
  title: Segment[];
  /** ISO date: published, or created for an item without one. */
  date: string;
  snippet: Segment[];
  /** Who may read it (無料公開, 会員限定, 有料会員限定); null for public pages. */
  access: AccessLevel | null;
  /** The item's cover (public, as on its cards), for the result's thumbnail. */
  cover: Cover | null;
};

const timeOf = (iso: string) => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? 0 : time;
};

/**
 * Whole-word matches first, then newest first, across lists that are each in that order, each
 * list's own order kept (the service breaks ties by id); equal places across types go in the
 * order of the lists.
 */
export function mergeRanked(lists: readonly (readonly SearchKey[])[]): SearchKey[] {
  const heads = lists.map(() => 0);
  const merged: SearchKey[] = [];
  const before = (a: SearchKey, b: SearchKey) =>
    a.whole === b.whole ? timeOf(a.date) > timeOf(b.date) : !!a.whole;
  for (;;) {
    let best = -1;
    lists.forEach((list, index) => {
      const key = list[heads[index]!];
      if (key === undefined) return;
      if (best < 0 || before(key, lists[best]![heads[best]!]!)) best = index;
    });
    if (best < 0) return merged;
    merged.push(lists[best]![heads[best]!]!);
    heads[best]!++;
  }
}

export const pageCount = (total: number) =>
  Math.min(SEARCH_MAX_PAGE, Math.max(1, Math.ceil(total / SEARCH_PAGE_SIZE)));

export type SearchResults = {
  /** The query as searched ('' = no search made). */
  q: string;
  terms: string[];
  type: SearchFilter;
  /** The page shown: the one asked for, or the last one when that is past the end. */
  page: number;
  totalPages: number;
  /** Matches per type; `all` is their sum. */
  counts: Record<SearchFilter, number>;
  /** Types (and `all`) whose count is a lower bound (a hosted service with many matches). */
  atLeast: SearchFilter[];
  hits: SearchHit[];
};

const noCounts = (): Record<SearchFilter, number> => ({
  all: 0,
  posts: 0,
  feature: 0,
  audios: 0,
  movies: 0,
  jobs: 0,
});

function toHit(doc: Doc, terms: string[], readings: readonly ReadingPair[] = []): SearchHit {
  return {
    type: doc.type,
    id: doc.id,
    href: doc.href,
    title: highlight(doc.title, terms, readings),
    date: doc.date,
    snippet: snippet(doc.text, terms, { readings }),
    access: doc.access,
    cover: doc.cover,
  };
}

async function searchType(
  search: Search,
  type: SearchType,
  request: SearchRequest,
): Promise<{ counts: Record<SearchFilter, number>; docs: Doc[]; page: number }> {
  const others = SEARCH_TYPES.filter((t) => t !== type);
  const [otherCounts, first] = await Promise.all([
    Promise.all(others.map((t) => countOf(search, t, request.q))),
    readPage(search, type, request.q, request.page),
  ]);
  const counts = noCounts();
  others.forEach((t, i) => (counts[t] = otherCounts[i] ?? 0));
  counts[type] = first.totalCount;
  let page = request.page;
  let docs = first.docs;
  const last = pageCount(first.totalCount);
  if (page > last) {
    page = last;
    docs = first.totalCount > 0 ? (await readPage(search, type, request.q, page)).docs : [];
  }
  return { counts, docs, page };
}

async function searchAll(
  search: Search,
  request: SearchRequest,
): Promise<{ counts: Record<SearchFilter, number>; docs: Doc[]; page: number }> {
  // Page N of the merged list lies within the first N pages of every type.
  const wanted = request.page * SEARCH_PAGE_SIZE;
  const perType = await Promise.all(
    SEARCH_TYPES.map((type) => readKeys(search, type, request.q, wanted)),
  );
  const counts = noCounts();
  SEARCH_TYPES.forEach((type, i) => {
    counts[type] = perType[i]?.totalCount ?? 0;
    counts.all += counts[type];
  });
  const page = Math.min(request.page, pageCount(counts.all));
  const merged = mergeRanked(perType.map((result) => result.keys));
  const shown = merged.slice((page - 1) * SEARCH_PAGE_SIZE, page * SEARCH_PAGE_SIZE);
  const found = await Promise.all(
    SEARCH_TYPES.map((type) =>
      readByIds(
        search,
        type,
        shown.filter((key) => key.type === type).map((key) => key.id),
      ),
    ),
  );
  const byKey = new Map(found.flat().map((doc) => [`${doc.type}/${doc.id}`, doc]));
  const docs = shown.flatMap((key) => byKey.get(`${key.type}/${key.id}`) ?? []);
  return { counts, docs, page };
}

/** The stored readings of the items shown, by `type/id` (none from a hosted service). */
async function readingsOfDocs(
  search: Search,
  docs: readonly Doc[],
): Promise<Map<string, ReadingPair[]>> {
  const { readings } = search;
  const found = new Map<string, ReadingPair[]>();
  if (!readings) return found;
  await Promise.all(
    SEARCH_TYPES.map(async (type) => {
      const ids = docs.filter((doc) => doc.type === type).map((doc) => doc.id);
      if (ids.length === 0) return;
      for (const [id, pairs] of await readings(type, ids)) found.set(`${type}/${id}`, pairs);
    }),
  );
  return found;
}

/**
 * The free-plan posts: a free member reads them, and every result says 会員限定 rather than
 * 有料会員限定 for them. The search scopes still open them only to whom the policy does.
 */
async function freePlanOf(client: Client): Promise<string[]> {
  return getFreePlanPostIds(client);
}

/**
 * One page of results for a request and a viewer; nothing is queried for an empty query.
 * The answer depends only on the viewer's audience (see the module comment).
 */
export async function searchSite(
  source: SearchSource,
  request: SearchRequest,
  viewer: Viewer,
  options: { now?: Date } = {},
): Promise<SearchResults> {
  const terms = queryTerms(request.q);
  const empty: SearchResults = {
    q: request.q,
    terms,
    type: request.type,
    page: 1,
    totalPages: 1,
    counts: noCounts(),
    atLeast: [],
    hits: [],
  };
  if (terms.length === 0) return { ...empty, q: '' };
  try {
    const who: Reader = { viewer, freePlanPostIds: await freePlanOf(source.client) };
    const scopes = searchScopes(viewer, who.freePlanPostIds);
    const search: Search = {
      list: source.db
        ? builtInLister(source.db, scopes)
        : checkedLister(source.client, scopes, who),
      ...(source.db ? { readings: builtInReadings(source.db, scopes) } : {}),
      reader: who,
      now: options.now ?? new Date(),
      atLeast: new Set(),
    };
    const { counts, docs, page } =
      request.type === 'all'
        ? await searchAll(search, request)
        : await searchType(search, request.type, request);
    counts.all = SEARCH_TYPES.reduce((sum, type) => sum + counts[type], 0);
    const atLeast: SearchFilter[] = [...search.atLeast];
    if (atLeast.length > 0) atLeast.push('all');
    const readings = await readingsOfDocs(search, docs);
    return {
      ...empty,
      page,
      totalPages: pageCount(counts[request.type]),
      counts,
      atLeast,
      hits: docs.map((doc) => toHit(doc, terms, readings.get(`${doc.type}/${doc.id}`))),
    };
  } catch (error) {
    // A query the service refuses is a search without results, not a broken page.
    // (The content client's 400, or the store's own: the query parser's QueryError, say.)
    if (
      (isContentRequestError(error) && error.status === 400) ||
      (isAppError(error) && error.status === 400)
    ) {
      console.warn('[search] the content service refused a query:', error.message);
      return empty;
    }
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Suggestions for an empty query or no results.

export type SearchSuggestions = {
  categories: { id: string; name: string; href: string }[];
  tags: { id: string; name: string; href: string }[];
};

const named = z.object({ contents: z.array(z.object({ id: z.string(), name: z.string() })) });

export async function searchSuggestions(
  client: Client,
  limits: { categories?: number; tags?: number } = {},
): Promise<SearchSuggestions> {
  const [categories, tags] = await Promise.all([
    client.get({
      endpoint: 'categories',
      queries: {
        limit: limits.categories ?? 6,
        orders: '-issueNumber,-publishedAt',
        fields: 'id,name',
      },
      schema: named,
    }),
    client.get({
      endpoint: 'tags',
      queries: { limit: limits.tags ?? 12, fields: 'id,name' },
      schema: named,
    }),
  ]);
  return {
    categories: categories.contents.map((c) => ({ ...c, href: `/feature/${c.id}` })),
    tags: tags.contents.map((t) => ({ ...t, href: `/posts?tag=${encodeURIComponent(t.id)}` })),
  };
}
