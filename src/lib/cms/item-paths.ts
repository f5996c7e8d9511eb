/**
 * Where the site shows a list item: the path before its id, by endpoint. The console's links
 * and URL preview, and the redirects of renamed items (src/server/services/cms/redirects.ts), read it.
 */
export const ITEM_PATH_PREFIXES: Readonly<Record<string, string>> = {
  posts: '/posts/',
  audios: '/audios/',
  movies: '/movies/',
  jobs: '/jobs/',
  connect: '/connect/',
  categories: '/feature/',
  writers: '/authors/',
  series: '/series/',
};

/** The item's public path, or null when its endpoint has no item pages. */
export function itemPath(endpoint: string, id: string): string | null {
  const prefix = ITEM_PATH_PREFIXES[endpoint];
  return prefix && id ? `${prefix}${encodeURIComponent(id)}` : null;
}
