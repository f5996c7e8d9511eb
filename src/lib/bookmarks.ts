/**
 * Bookmarks, the parts both sides need: which content endpoints can be bookmarked, how an
 * item is named in the API (`posts:ID`) and where it lives on the site.
 */

export const BOOKMARK_ENDPOINTS = ['posts', 'audios', 'movies', 'connect'] as const;
export type BookmarkEndpoint = (typeof BOOKMARK_ENDPOINTS)[number];

export type BookmarkRef = { endpoint: BookmarkEndpoint; contentId: string };

/** A reader keeps at most this many bookmarks. */
export const BOOKMARK_LIMIT = 2000;
/** Items one `GET /api/bookmarks?items=…` may ask about. */
export const BOOKMARK_QUERY_MAX = 100;
/** Rows per page of /posts/bookmark. */
export const BOOKMARK_PAGE_SIZE = 20;

export const BOOKMARK_TYPE_LABELS: Record<BookmarkEndpoint, string> = {
  posts: '記事',
  audios: '音声',
  movies: '動画',
  connect: 'コネクト',
};

export function isBookmarkEndpoint(value: unknown): value is BookmarkEndpoint {
  return (BOOKMARK_ENDPOINTS as readonly unknown[]).includes(value);
}

/** `posts:abc` — the form of an item in the API's `items` list and answer. */
export function bookmarkKey(ref: BookmarkRef): string {
  return `${ref.endpoint}:${ref.contentId}`;
}

/** The page of a bookmarked item. */
export function bookmarkHref(ref: BookmarkRef): string {
  return `/${ref.endpoint}/${encodeURIComponent(ref.contentId)}`;
}
