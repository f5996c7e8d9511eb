import 'server-only';
import type { MetadataRoute } from 'next';
import { openListingsFilter } from '@/lib/jobs';
import { type SITE_PAGE_ENDPOINTS } from '@/lib/site-pages';
import { authorPath, seriesPath } from '@/lib/authors/works';
import { escapeXml } from './xml';

/**
 * What the sitemaps list, as pure functions of the content read for them (sitemap.ts reads,
 * this module decides). Only indexable pages: members-only connect, search, bookmarks,
 * account, sign-in, admin and preview URLs are never listed.
 */

export type SitemapEntry = MetadataRoute.Sitemap[number];

/** Google's and the sitemaps.org protocol's limit of URLs in one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;

type ItemSource = {
  endpoint: string;
  path: (id: string) => string;
  /** Only these published items are listed (a content service filter for the moment `now`). */
  filters?: (now: Date) => string;
  /** The type has no `seo` field (no editor's noindex to honour): every published item is listed. */
  noSeoField?: true;
};

/**
 * List endpoints whose published items have a page of their own, in sitemap order. A job
 * listing past its closing day is no longer listed (its page says it is closed, noindex).
 */
export const SITEMAP_ITEM_SOURCES = [
  { endpoint: 'posts', path: (id: string) => `/posts/${encodeURIComponent(id)}` },
  { endpoint: 'audios', path: (id: string) => `/audios/${encodeURIComponent(id)}` },
  { endpoint: 'movies', path: (id: string) => `/movies/${encodeURIComponent(id)}` },
  {
    endpoint: 'jobs',
    path: (id: string) => `/jobs/${encodeURIComponent(id)}`,
    filters: (now: Date) => openListingsFilter(now),
  },
  { endpoint: 'categories', path: (id: string) => `/feature/${encodeURIComponent(id)}` },
  // Last, so the files listing the types above stay the same (docs/decisions/035-authors-and-series.md).
  { endpoint: 'writers', path: authorPath, noSeoField: true },
  { endpoint: 'series', path: seriesPath, noSeoField: true },
] as const satisfies readonly ItemSource[];

/** Items an editor marked noindex (the `seo` custom field) are never listed. */
export const INDEXABLE_FILTER = 'seo.noIndex[not_equals]true';

/** The filter of an endpoint's listed items at `now`: indexable ones, and its own narrowing. */
export function sitemapFilterOf(endpoint: string, now: Date): string | undefined {
  const source: ItemSource | undefined = SITEMAP_ITEM_SOURCES.find((s) => s.endpoint === endpoint);
  if (!source) return undefined;
  const own = source.filters?.(now);
  // Types without a seo field (writers, series): every published item counts.
  if (source.noSeoField) return own;
  return own ? `${INDEXABLE_FILTER}[and]${own}` : INDEXABLE_FILTER;
}

export type SitemapItemEndpoint = (typeof SITEMAP_ITEM_SOURCES)[number]['endpoint'];

export type SitemapDateSource = SitemapItemEndpoint | (typeof SITE_PAGE_ENDPOINTS)[number];

export type StaticRoute = {
  path: string;
  changeFrequency?: SitemapEntry['changeFrequency'];
  priority?: number;
  /** The endpoints whose newest published revision is the page's last modification. */
  datedBy?: readonly SitemapDateSource[];
};

const LISTS = ['posts', 'audios', 'movies', 'jobs', 'categories', 'series'] as const;

/** Every public, indexable route without an id, first in the first sitemap. */
export const SITEMAP_STATIC_ROUTES: readonly StaticRoute[] = [
  { path: '/', changeFrequency: 'daily', priority: 1, datedBy: LISTS },
  { path: '/posts', changeFrequency: 'daily', priority: 0.8, datedBy: ['posts'] },
  { path: '/audios', changeFrequency: 'weekly', priority: 0.6, datedBy: ['audios'] },
  { path: '/movies', changeFrequency: 'weekly', priority: 0.6, datedBy: ['movies'] },
  { path: '/series', changeFrequency: 'weekly', priority: 0.6, datedBy: ['series', 'posts'] },
  {
    path: '/feature',
    changeFrequency: 'weekly',
    priority: 0.6,
    datedBy: ['categories', 'posts'],
  },
  { path: '/insight', changeFrequency: 'weekly', priority: 0.6, datedBy: ['posts'] },
  { path: '/jobs', changeFrequency: 'daily', priority: 0.6, datedBy: ['jobs'] },
  // The plans come from billing, not the content service: no date to give.
  { path: '/service-plans', changeFrequency: 'monthly', priority: 0.5 },
  { path: '/about', changeFrequency: 'monthly', priority: 0.3, datedBy: ['about'] },
  { path: '/faq', changeFrequency: 'monthly', priority: 0.3, datedBy: ['faq'] },
  { path: '/contact', changeFrequency: 'yearly', priority: 0.2 },
  { path: '/terms', changeFrequency: 'yearly', priority: 0.2, datedBy: ['terms'] },
  {
    path: '/specified-commercial-transactions',
    changeFrequency: 'yearly',
    priority: 0.2,
    datedBy: ['specified-commercial-transactions'],
  },
  { path: '/studio', changeFrequency: 'monthly', priority: 0.3, datedBy: ['studio'] },
  { path: '/biz/about', changeFrequency: 'monthly', priority: 0.4, datedBy: ['biz-about'] },
];

/** The dates the content API gives an item (any of them may be missing from a narrowed read). */
export type DatedItem = { revisedAt?: string | null; updatedAt?: string | null };
export type SitemapItem = DatedItem & { id: string };

function isoDate(value: string | null | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/**
 * When the published version last changed: revisedAt (set on publishing), else updatedAt.
 * updatedAt alone also moves when a draft of a published item is saved, so it comes second.
 */
export function lastModifiedOf(item: DatedItem): string | undefined {
  return isoDate(item.revisedAt) ?? isoDate(item.updatedAt);
}

/** The latest of some ISO dates (undefined ones ignored). */
export function latestDate(dates: readonly (string | undefined)[]): string | undefined {
  let latest: string | undefined;
  for (const date of dates) {
    const iso = isoDate(date);
    if (iso && (!latest || iso > latest)) latest = iso;
  }
  return latest;
}

/** An absolute URL on the site: SITE_URL has no trailing slash (src/env.ts). */
export function siteUrlOf(siteUrl: string, path: string): string {
  return `${siteUrl.replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

export function staticEntries(
  siteUrl: string,
  newest: Partial<Record<SitemapDateSource, string | undefined>>,
  routes: readonly StaticRoute[] = SITEMAP_STATIC_ROUTES,
  /** Paths whose page an editor marked noindex: left out. */
  noIndex: ReadonlySet<string> = new Set(),
): SitemapEntry[] {
  return routes
    .filter((route) => !noIndex.has(route.path))
    .map((route) => {
      const lastModified = latestDate((route.datedBy ?? []).map((source) => newest[source]));
      return {
        url: siteUrlOf(siteUrl, route.path),
        ...(lastModified ? { lastModified } : {}),
        ...(route.changeFrequency ? { changeFrequency: route.changeFrequency } : {}),
        ...(route.priority !== undefined ? { priority: route.priority } : {}),
      };
    });
}

export function itemEntries(
  siteUrl: string,
  endpoint: SitemapItemEndpoint,
  items: readonly SitemapItem[],
): SitemapEntry[] {
  const source = SITEMAP_ITEM_SOURCES.find((s) => s.endpoint === endpoint);
  if (!source) throw new Error(`No sitemap path for endpoint ${endpoint}`);
  return items.map((item) => {
    const lastModified = lastModifiedOf(item);
    return {
      url: siteUrlOf(siteUrl, source.path(item.id)),
      ...(lastModified ? { lastModified } : {}),
    };
  });
}

/** How many sitemap files a number of URLs needs (always at least one, even when empty). */
export function sitemapCount(totalUrls: number, maxUrls = SITEMAP_MAX_URLS): number {
  return Math.max(1, Math.ceil(totalUrls / maxUrls));
}

export type SitemapSegment<K extends string = string> = { key: K; count: number };
export type SitemapRead<K extends string = string> = { key: K; offset: number; limit: number };

/**
 * What sitemap number `index` holds: the URLs are the segments laid end to end (the static
 * routes, then each endpoint's items in a fixed order), cut every `maxUrls`. Returns, for each
 * segment that falls in the window, the offset and number of its rows to read.
 */
export function sitemapWindow<K extends string>(
  segments: readonly SitemapSegment<K>[],
  index: number,
  maxUrls = SITEMAP_MAX_URLS,
): SitemapRead<K>[] {
  if (!Number.isInteger(index) || index < 0) return [];
  const windowStart = index * maxUrls;
  const windowEnd = windowStart + maxUrls;
  const reads: SitemapRead<K>[] = [];
  let start = 0;
  for (const { key, count } of segments) {
    const end = start + Math.max(0, count);
    const from = Math.max(start, windowStart);
    const to = Math.min(end, windowEnd);
    if (to > from) reads.push({ key, offset: from - start, limit: to - from });
    start = end;
  }
  return reads;
}

/**
 * A sitemap index (sitemaps.org protocol) listing /sitemap/0.xml … for `count` files. No
 * lastmod: one date for every file would be wrong for all but the newest.
 */
export function sitemapIndexXml(siteUrl: string, count: number): string {
  const entries = Array.from({ length: count }, (_, id) => {
    const loc = escapeXml(siteUrlOf(siteUrl, `/sitemap/${id}.xml`));
    return `<sitemap><loc>${loc}</loc></sitemap>`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    entries.map((e) => `${e}\n`).join('') +
    '</sitemapindex>\n'
  );
}

/** One sitemap file (sitemaps.org urlset) of entries with their last modification. */
export function sitemapXml(entries: readonly SitemapEntry[]): string {
  const urls = entries.map((entry) => {
    const modified =
      entry.lastModified === undefined
        ? ''
        : `<lastmod>${escapeXml(new Date(entry.lastModified).toISOString())}</lastmod>`;
    return `<url><loc>${escapeXml(entry.url)}</loc>${modified}</url>`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n' +
    urls.map((u) => `${u}\n`).join('') +
    '</urlset>\n'
  );
}
