import 'server-only';
import { CONTENT_ID } from '@/server/features/content';

/**
 * Which content item a page shows, read from its path alone, so a beacon cannot claim a view
 * of an item it did not show. Only the item pages count; lists, previews and the bookmark
 * page are pages, not content views.
 */

export type ContentRef = { endpoint: ContentEndpoint; contentId: string };
export type ContentEndpoint = 'posts' | 'audios' | 'movies' | 'connect' | 'jobs' | 'categories';

/** First path segment → content endpoint. `/feature/{id}` shows a category (a feature issue). */
const SEGMENT_ENDPOINT: Readonly<Record<string, ContentEndpoint>> = {
  posts: 'posts',
  audios: 'audios',
  movies: 'movies',
  connect: 'connect',
  jobs: 'jobs',
  feature: 'categories',
};

/** Second segments that name a page of the site rather than an item. */
const RESERVED = new Set(['preview', 'bookmark']);

export function contentForPath(path: string): ContentRef | null {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  const segments = pathname.replace(/\/+$/, '').split('/');
  // ['', area, id]: exactly two segments, so /posts/{id}/preview is not a view of {id}.
  if (segments.length !== 3 || segments[0] !== '') return null;
  const [, area = '', contentId = ''] = segments;
  const endpoint = Object.hasOwn(SEGMENT_ENDPOINT, area) ? SEGMENT_ENDPOINT[area] : undefined;
  if (!endpoint || RESERVED.has(contentId) || !CONTENT_ID.test(contentId)) return null;
  return { endpoint, contentId };
}

const ENDPOINT_PATH: Readonly<Record<ContentEndpoint, string>> = {
  posts: '/posts',
  audios: '/audios',
  movies: '/movies',
  connect: '/connect',
  jobs: '/jobs',
  categories: '/feature',
};

/** The page of an item: the inverse of contentForPath. */
export function pathForContent(ref: ContentRef): string {
  return `${ENDPOINT_PATH[ref.endpoint]}/${encodeURIComponent(ref.contentId)}`;
}

export function isContentEndpoint(value: string): value is ContentEndpoint {
  return Object.hasOwn(ENDPOINT_PATH, value);
}
