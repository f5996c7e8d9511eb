/**
 * The site's RSS feeds and how a page's head names them (`<link rel="alternate"
 * type="application/rss+xml">`, docs/decisions/035-authors-and-series.md): the site feed on
 * every page, a series' own feed on the series page and on its episodes.
 */

export const SITE_FEED_PATH = '/feed.xml';

export type FeedLink = { url: string; title: string };

/** The feed of one series: its page's path and `/feed.xml`. */
export function seriesFeedPath(seriesId: string): string {
  return `/series/${encodeURIComponent(seriesId)}/feed.xml`;
}

export function siteFeedLink(siteName: string): FeedLink {
  return { url: SITE_FEED_PATH, title: `${siteName}の新着記事` };
}

export function seriesFeedLink(series: { id: string; title: string }): FeedLink {
  return { url: seriesFeedPath(series.id), title: `連載「${series.title}」の新着記事` };
}

/** The `alternates.types` of a page's metadata: the site feed first, then the page's own. */
export function feedAlternates(
  siteName: string,
  feeds: readonly FeedLink[] = [],
): { 'application/rss+xml': FeedLink[] } {
  return { 'application/rss+xml': [siteFeedLink(siteName), ...feeds] };
}
