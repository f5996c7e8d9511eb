import 'server-only';
import { z } from '@/lib/zod';

/**
 * The site search's request (/search?q=…&type=…&page=N): the types searched, their labels,
 * and the parsing that falls back to a default for anything malformed.
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
