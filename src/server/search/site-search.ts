import 'server-only';
import { openListingsFilter } from '@/lib/jobs';
import { z } from '@/lib/zod';
import { type Viewer, audioFor, postFor } from '@/server/access/post-access';
import { SEARCHABLE_KINDS, findEndpoint } from '@/lib/cms/model';
import { FilterSyntaxError } from '@/server/cms/query/filters';
import { QueryError, parseListQuery } from '@/server/cms/query/params';
import { type SearchScope, searchableText, textMatches, viewOf } from '@/server/cms/search-index';
import { listContents } from '@/server/cms/store';
import {
  CONTENT_PAGE_SIZE,
  type ContentClient,
  type ContentQueries,
  getFreePlanPostIds,
  isContentRequestError,
  serializeContentQueries,
} from '@/server/content/client';
import {
  audioSchema,
  categorySchema,
  jobSchema,
  movieSchema,
  postSchema,
} from '@/server/content/schemas';
import { siteContent, usesBuiltInContent } from '@/server/content/site-content';
import { type Db, getDb } from '@/server/db/client';
import { type Segment, highlight, queryTerms, snippet } from './snippet';
import { mediaSearchScope, postsSearchScope } from './search-scope';
import { htmlToText } from './tokenize';

/**
 * The site search (/search): one query over posts, feature issues, audio, movies and jobs
 * through the content service's `q` (Japanese-aware, src/server/cms/search-index.ts), with
 * counts per type, a merged newest-first list for "all", paging and highlighted snippets.
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

export const SEARCH_TYPES = ['posts', 'feature', 'audios', 'movies', 'jobs'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];
export const SEARCH_FILTERS = ['all', ...SEARCH_TYPES] as const;
export type SearchFilter = (typeof SEARCH_FILTERS)[number];

export const SEARCH_TYPE_LABELS: Readonly<Record<SearchFilter, string>> = {
  all: 'すべて',
  posts: '記事',
  feature: '特集',
  audios: '音声',
  movies: '動画',
  jobs: '求人',
};

export const SEARCH_PAGE_SIZE = 10;
/** Deeper pages are not offered: 1,000 results are more than anyone pages through. */
export const SEARCH_MAX_PAGE = 100;
export const SEARCH_QUERY_MAX_LENGTH = 100;

// ---------------------------------------------------------------------------------------------
// The request: ?q=…&type=…&page=N. Anything malformed falls back to its default.

export type SearchRequest = { q: string; type: SearchFilter; page: number };

const firstValue = (value: unknown) => (Array.isArray(value) ? (value as unknown[])[0] : value);

// Control characters (a NUL cannot go into PostgreSQL text) and lone surrogates.
const UNUSABLE = /[\p{Cc}\p{Cs}]/gu;

/** The query as searched and shown: spaces collapsed, at most 100 characters. */
export function cleanQuery(raw: string): string {
  const cleaned = raw.replace(UNUSABLE, ' ').replace(/\s+/gu, ' ').trim();
  return Array.from(cleaned).slice(0, SEARCH_QUERY_MAX_LENGTH).join('').trim();
}

export const searchRequestSchema = z.object({
  q: z.preprocess(firstValue, z.string().transform(cleanQuery)).catch(''),
  type: z.preprocess(firstValue, z.enum(SEARCH_FILTERS)).catch('all'),
  page: z
    .preprocess(
      firstValue,
      z
        .string()
        .regex(/^[0-9]{1,9}$/)
        .transform(Number)
        .pipe(z.number().int().min(1))
        .transform((page) => Math.min(page, SEARCH_MAX_PAGE)),
    )
    .catch(1),
});

export function parseSearchRequest(
  params: Record<string, string | string[] | undefined>,
): SearchRequest {
  const parsed = searchRequestSchema.safeParse(params);
  return parsed.success ? parsed.data : { q: '', type: 'all', page: 1 };
}

/** The URL of a search (page 1 and "all" are left out). */
export function searchHref(request: Partial<SearchRequest>): string {
  const params = new URLSearchParams();
  if (request.q) params.set('q', request.q);
  if (request.type && request.type !== 'all') params.set('type', request.type);
  if (request.page && request.page > 1) params.set('page', String(request.page));
  const query = params.toString();
  return query ? `/search?${query}` : '/search';
}

// ---------------------------------------------------------------------------------------------
// What each type is read with, and what of it a snippet may quote.

/** One found item, ready for the page: plain data, highlighted as segments. */
export type SearchHit = {
  type: SearchType;
  id: string;
  href: string;
  title: Segment[];
  /** ISO date: published, or created for an item without one. */
  date: string;
  snippet: Segment[];
  /** Members' content (the item's page shows its lead and a call to action). */
  membersOnly: boolean;
  /** The item's cover (public, as on its cards), for the result's thumbnail. */
  cover: Cover | null;
};

type Cover = { url: string; alt?: string };

type Doc = {
  type: SearchType;
  id: string;
  href: string;
  title: string;
  date: string;
  /** Everything a snippet may quote: only what anyone may read of the item. */
  text: string;
  membersOnly: boolean;
  cover: Cover | null;
};

/** Who is searching, as the policy needs it. */
type Reader = { viewer: Viewer; freePlanPostIds: readonly string[] };

type Source<T> = {
  endpoint: string;
  fields: string;
  schema: z.ZodType<T>;
  /** Only these items of the endpoint are searched (a content service filter), at `now`. */
  filters?: (now: Date) => string;
  toDoc: (item: T, reader: Reader) => Doc;
};
const dateOf = (item: { publishedAt?: string; createdAt: string }) =>
  item.publishedAt ?? item.createdAt;
const joinText = (...parts: (string | undefined)[]) =>
  parts.filter((part): part is string => !!part && part.trim() !== '').join(' ');

const coverOf = (item: { coverImage?: { url: string; alt?: string } }): Cover | null =>
  item.coverImage ? { url: item.coverImage.url, alt: item.coverImage.alt } : null;

/** Rich text as quotable plain text. */
const plainText = (html: string | undefined) => (html ? htmlToText(html) : '');

const postFields = postSchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  title: true,
  description: true,
  body: true,
  isPublicPreview: true,
});

const postSource: Source<z.infer<typeof postFields>> = {
  endpoint: 'posts',
  fields: 'id,createdAt,publishedAt,title,description,body,isPublicPreview,coverImage',
  schema: postFields,
  toDoc(post, reader) {
    // Quote only what this viewer may read: the whole body, or its lead.
    const { item } = postFor(reader.viewer, post, reader.freePlanPostIds);
    return {
      type: 'posts',
      id: item.id,
      href: `/posts/${item.id}`,
      title: item.title,
      date: dateOf(item),
      text: joinText(item.description, plainText(item.body)),
      membersOnly: !post.isPublicPreview,
      cover: coverOf(post),
    };
  },
};
const audioFields = audioSchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  title: true,
  description: true,
  transcript: true,
  isPublicPreview: true,
});
const audioSource: Source<z.infer<typeof audioFields>> = {
  endpoint: 'audios',
  fields: 'id,createdAt,publishedAt,title,description,transcript,isPublicPreview,coverImage',
  schema: audioFields,
  toDoc(audio, reader) {
    const { item } = audioFor(reader.viewer, audio);
    return {
      type: 'audios',
      id: item.id,
      href: `/audios/${item.id}`,
      title: item.title,
      date: dateOf(item),
      text: joinText(item.description, plainText(item.transcript)),
      membersOnly: !audio.isPublicPreview,
      cover: coverOf(audio),
    };
  },
};

const movieFields = movieSchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  title: true,
  description: true,
  isPublicPreview: true,
});
const movieSource: Source<z.infer<typeof movieFields>> = {
  endpoint: 'movies',
  fields: 'id,createdAt,publishedAt,title,description,isPublicPreview,coverImage',
  schema: movieFields,
  toDoc: (movie) => ({
    type: 'movies',
    id: movie.id,
    href: `/movies/${movie.id}`,
    title: movie.title,
    date: dateOf(movie),
    text: joinText(movie.description),
    membersOnly: !movie.isPublicPreview,
    cover: coverOf(movie),
  }),
};

const jobFields = jobSchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  title: true,
  description: true,
  body: true,
  location: true,
  hours: true,
});
const jobSource: Source<z.infer<typeof jobFields>> = {
  endpoint: 'jobs',
  fields: 'id,createdAt,publishedAt,title,description,body,location,hours,coverImage',
  schema: jobFields,
  // A listing past its closing day is not found: it has left /jobs and the sitemap too.
  filters: (now) => openListingsFilter(now),
  // Job listings are public: all of their text may be quoted.
  toDoc: (job) => ({
    type: 'jobs',
    id: job.id,
    href: `/jobs/${job.id}`,
    title: job.title,
    date: dateOf(job),
    text: joinText(
      job.description,
      plainText(job.body),
      job.location ?? undefined,
      job.hours ?? undefined,
    ),
    membersOnly: false,
    cover: coverOf(job),
  }),
};

const featureFields = categorySchema.pick({
  id: true,
  coverImage: true,
  createdAt: true,
  publishedAt: true,
  name: true,
  description: true,
  issueNumber: true,
});
const featureSource: Source<z.infer<typeof featureFields>> = {
  endpoint: 'categories',
  fields: 'id,createdAt,publishedAt,name,description,issueNumber,coverImage',
  schema: featureFields,
  // A feature issue's page is public: its name and description may be quoted.
  toDoc: (feature) => ({
    type: 'feature',
    id: feature.id,
    href: `/feature/${feature.id}`,
    title: feature.issueNumber ? `特集 No.${feature.issueNumber}「${feature.name}」` : feature.name,
    date: dateOf(feature),
    text: joinText(feature.description),
    membersOnly: false,
    cover: coverOf(feature),
  }),
};

type AnySource = {
  endpoint: string;
  fields: string;
  filters?: (now: Date) => string;
  read: (contents: unknown, reader: Reader) => Doc[];
};

function reader<T>(source: Source<T>): AnySource {
  const schema = z.array(source.schema);
  return {
    endpoint: source.endpoint,
    fields: source.fields,
    ...(source.filters ? { filters: source.filters } : {}),
    read: (contents, who) => schema.parse(contents).map((item) => source.toDoc(item, who)),
  };
}

const SOURCES: Readonly<Record<SearchType, AnySource>> = {
  posts: reader(postSource),
  feature: reader(featureSource),
  audios: reader(audioSource),
  movies: reader(movieSource),
  jobs: reader(jobSource),
};

/** Which text each type is matched on for a viewer (search-scope.ts asks the policy). */
export function searchScopes(
  viewer: Viewer,
  freePlanPostIds: readonly string[],
): Record<SearchType, SearchScope> {
  const media = mediaSearchScope(viewer);
  return {
    posts: postsSearchScope(viewer, freePlanPostIds),
    audios: media,
    movies: media,
    // Feature issues and job listings are public: no part of them is closed.
    feature: { kind: 'full' },
    jobs: { kind: 'full' },
  };
}

// ---------------------------------------------------------------------------------------------
// Queries

type Client = Pick<ContentClient, 'get'>;

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

/** A found item's place in the newest-first order: enough to merge the types. */
export type SearchKey = { type: SearchType; id: string; date: string };

const NEWEST_FIRST = '-publishedAt';

/** The built-in service in process: `q` matches the text each type's scope allows. */
function builtInLister(db: Db, scopes: Record<SearchType, SearchScope>): Lister {
  return async (type, queries) => {
    const def = findEndpoint(SOURCES[type].endpoint)!;
    const params = new URLSearchParams(serializeContentQueries(queries));
    // No references are shown: depth 0 saves their queries.
    const query = { ...parseListQuery(params), depth: 0, scope: scopes[type] };
    const answer = await listContents(db, def, query, { kind: 'published' });
    return { contents: answer.contents, totalCount: answer.totalCount };
  };
}

/** Matches of a hosted service checked per viewer: at most this many per type and search. */
export const HOSTED_CHECKED_MATCHES = 300;

/**
 * A service over its API matches `q` on whole items. For a type the viewer does not read whole,
 * its first matches are read with their text and kept only when every term occurs in what the
 * policy gives this viewer; counts and pages come from the kept ones (a lower bound when there
 * were more matches than were checked).
 */
function checkedLister(
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
type Search = {
  list: Lister;
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

async function countOf(search: Search, type: SearchType, q: string): Promise<number> {
  const answer = await list(search, type, { q, limit: 0, fields: 'id' });
  return answer.totalCount;
}

async function readPage(
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

/** The first `wanted` matches of a type, newest first, as keys (in pages of 100, as microCMS allows). */
async function readKeys(
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
    for (const item of contents) keys.push({ type, id: item.id, date: dateOf(item) });
    offset += limit;
    if (contents.length < limit || offset >= totalCount) break;
  }
  return { keys, totalCount };
}

/** Items already found, by id: no `q` (their match was decided by the viewer's search). */
async function readByIds(search: Search, type: SearchType, ids: string[]): Promise<Doc[]> {
  if (ids.length === 0) return [];
  const answer = await list(search, type, {
    ids,
    limit: ids.length,
    fields: SOURCES[type].fields,
  });
  return SOURCES[type].read(listAnswer.parse(answer).contents, search.reader);
}

const timeOf = (iso: string) => {
  const time = Date.parse(iso);
  return Number.isNaN(time) ? 0 : time;
};

/**
 * Newest first across lists that are each newest first, each list's own order kept (the
 * service breaks ties by id); equal dates across types go in the order of the lists.
 */
export function mergeNewestFirst(lists: readonly (readonly SearchKey[])[]): SearchKey[] {
  const heads = lists.map(() => 0);
  const merged: SearchKey[] = [];
  for (;;) {
    let best = -1;
    let bestTime = -Infinity;
    lists.forEach((list, index) => {
      const key = list[heads[index]!];
      if (key === undefined) return;
      const time = timeOf(key.date);
      if (best < 0 || time > bestTime) {
        best = index;
        bestTime = time;
      }
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

function toHit(doc: Doc, terms: string[]): SearchHit {
  return {
    type: doc.type,
    id: doc.id,
    href: doc.href,
    title: highlight(doc.title, terms),
    date: doc.date,
    snippet: snippet(doc.text, terms),
    membersOnly: doc.membersOnly,
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
  const merged = mergeNewestFirst(perType.map((result) => result.keys));
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

/** The free-plan posts, read only for a viewer whose access depends on them. */
async function freePlanOf(client: Client, viewer: Viewer): Promise<string[]> {
  return viewer.kind === 'member' && !viewer.paid ? getFreePlanPostIds(client) : [];
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
    const who: Reader = { viewer, freePlanPostIds: await freePlanOf(source.client, viewer) };
    const scopes = searchScopes(viewer, who.freePlanPostIds);
    const search: Search = {
      list: source.db
        ? builtInLister(source.db, scopes)
        : checkedLister(source.client, scopes, who),
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
    return {
      ...empty,
      page,
      totalPages: pageCount(counts[request.type]),
      counts,
      atLeast,
      hits: docs.map((doc) => toHit(doc, terms)),
    };
  } catch (error) {
    // A query the service refuses is a search without results, not a broken page.
    if (
      (isContentRequestError(error) && error.status === 400) ||
      error instanceof QueryError ||
      error instanceof FilterSyntaxError
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
