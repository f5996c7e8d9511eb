import 'server-only';
import { SITE_PAGE_ENDPOINTS } from '@/lib/site-pages';
import {
  CONTENT_GET_ALL_PAGE_SIZE,
  CONTENT_PAGE_PAUSE_MS,
  CONTENT_PAGE_SIZE,
  type ContentClient,
  isContentRequestError,
  sitePagePath,
} from '@/server/features/content';
import { z } from '@/lib/zod';
import {
  SITEMAP_ITEM_SOURCES,
  SITEMAP_MAX_URLS,
  SITEMAP_STATIC_ROUTES,
  type SitemapDateSource,
  type SitemapEntry,
  type SitemapItemEndpoint,
  itemEntries,
  lastModifiedOf,
  sitemapFilterOf,
  sitemapCount,
  sitemapWindow,
  staticEntries,
} from './sitemap-entries';

/**
 * Reads what the sitemaps list through the site's content client (published content only:
 * the site client never sends a draft key here). Each sitemap file reads only its own window
 * of at most 50,000 ids, with `fields=id,revisedAt,updatedAt`, in pages; the plan comes from
 * one `limit=1` read per endpoint, which gives the count and the newest revision at once.
 *
 * Items are read oldest first, so publishing new items only appends to the last file and the
 * earlier files stay the same between crawls.
 */

type Reader = Pick<ContentClient, 'get'>;

export type SitemapReadOptions = {
  /** URLs per sitemap file (tests use a small number). */
  maxUrls?: number;
  /** Rows per request: 1000 on the built-in service, 100 on a hosted microCMS. */
  pageSize?: number;
  /** Pause between pages (a hosted microCMS's rate limit; the built-in path is exempt). */
  pauseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** The moment the sitemap describes (job listings past their closing day are left out). */
  now?: Date;
};

/** The page size and pause for the content service the site reads. */
export function sitemapReadOptions(builtIn: boolean): SitemapReadOptions {
  return builtIn
    ? { pageSize: CONTENT_GET_ALL_PAGE_SIZE, pauseMs: 0 }
    : { pageSize: CONTENT_PAGE_SIZE, pauseMs: CONTENT_PAGE_PAUSE_MS };
}

const dates = { revisedAt: z.string().nullish(), updatedAt: z.string().nullish() };
const summarySchema = z.object({
  totalCount: z.number().int().nonnegative(),
  contents: z.array(z.object(dates)),
});
const idsSchema = z.object({ contents: z.array(z.object({ id: z.string().min(1), ...dates })) });
const objectDatesSchema = z.object({
  ...dates,
  seo: z.object({ noIndex: z.boolean().optional() }).nullish(),
});

export type SitemapSummary = {
  counts: Record<SitemapItemEndpoint, number>;
  newest: Partial<Record<SitemapDateSource, string | undefined>>;
};

/** Only the items the sitemap lists: `filters` for an endpoint that narrows them. */
const listedOnly = (endpoint: string, now: Date | undefined) => {
  const filters = sitemapFilterOf(endpoint, now ?? new Date());
  return filters ? { filters } : {};
};

async function summarizeList(client: Reader, endpoint: string, now: Date | undefined) {
  const answer = await client.get({
    endpoint,
    queries: {
      limit: 1,
      orders: '-revisedAt',
      fields: 'revisedAt,updatedAt',
      depth: 0,
      ...listedOnly(endpoint, now),
    },
    schema: summarySchema,
  });
  const first = answer.contents[0];
  return { count: answer.totalCount, newest: first ? lastModifiedOf(first) : undefined };
}

type PageState = { revisedAt: string | undefined; noIndex: boolean };

/**
 * An object page's last revision and whether an editor marked it noindex; no revision when the
 * page has never been published (404).
 */
async function objectRevision(client: Reader, endpoint: string): Promise<PageState> {
  try {
    const page = await client.get({
      endpoint,
      queries: { fields: 'revisedAt,updatedAt,seo' },
      schema: objectDatesSchema,
    });
    return { revisedAt: lastModifiedOf(page), noIndex: page.seo?.noIndex === true };
  } catch (error) {
    if (isContentRequestError(error) && error.status === 404)
      return { revisedAt: undefined, noIndex: false };
    throw error;
  }
}

/** Counts of every listed endpoint and the newest revision of each list (for list pages). */
export async function readSitemapSummary(
  client: Reader,
  options: Pick<SitemapReadOptions, 'now'> = {},
): Promise<SitemapSummary> {
  const lists = SITEMAP_ITEM_SOURCES.map((s) => s.endpoint);
  const summaries = await Promise.all(
    lists.map(
      async (endpoint) => [endpoint, await summarizeList(client, endpoint, options.now)] as const,
    ),
  );
  const counts = Object.fromEntries(SITEMAP_ITEM_SOURCES.map((s) => [s.endpoint, 0])) as Record<
    SitemapItemEndpoint,
    number
  >;
  const newest: SitemapSummary['newest'] = {};
  for (const [endpoint, summary] of summaries) {
    newest[endpoint] = summary.newest;
    counts[endpoint] = summary.count;
  }
  return { counts, newest };
}

/** The last revision of each information page (about, faq, …), and the noindex ones' paths. */
async function readPageDates(
  client: Reader,
): Promise<{ newest: SitemapSummary['newest']; noIndex: Set<string> }> {
  const states = await Promise.all(
    SITE_PAGE_ENDPOINTS.map(
      async (endpoint) => [endpoint, await objectRevision(client, endpoint)] as const,
    ),
  );
  return {
    newest: Object.fromEntries(states.map(([endpoint, state]) => [endpoint, state.revisedAt])),
    noIndex: new Set(
      states.filter(([, state]) => state.noIndex).map(([endpoint]) => sitePagePath(endpoint)),
    ),
  };
}

function segmentsOf(summary: SitemapSummary) {
  return [
    { key: 'static' as const, count: SITEMAP_STATIC_ROUTES.length },
    ...SITEMAP_ITEM_SOURCES.map((s) => ({ key: s.endpoint, count: summary.counts[s.endpoint] })),
  ];
}

export function totalSitemapUrls(summary: SitemapSummary): number {
  return segmentsOf(summary).reduce((sum, s) => sum + s.count, 0);
}

/** The sitemap file numbers: 0 … n-1. */
export async function readSitemapIds(
  client: Reader,
  options: SitemapReadOptions = {},
): Promise<{ id: number }[]> {
  const summary = await readSitemapSummary(client, options);
  const count = sitemapCount(totalSitemapUrls(summary), options.maxUrls ?? SITEMAP_MAX_URLS);
  return Array.from({ length: count }, (_, id) => ({ id }));
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `limit` published items of an endpoint from `offset`, oldest first, ids and dates only. */
async function readIdRange(
  client: Reader,
  endpoint: string,
  offset: number,
  limit: number,
  options: SitemapReadOptions,
) {
  const pageSize = options.pageSize ?? CONTENT_GET_ALL_PAGE_SIZE;
  const sleep = options.sleep ?? defaultSleep;
  const rows: z.infer<typeof idsSchema>['contents'] = [];
  for (let read = 0; read < limit;) {
    if (read > 0 && options.pauseMs) await sleep(options.pauseMs);
    const take = Math.min(pageSize, limit - read);
    const { contents } = await client.get({
      endpoint,
      queries: {
        limit: take,
        offset: offset + read,
        orders: 'createdAt',
        fields: 'id,revisedAt,updatedAt',
        depth: 0,
        ...listedOnly(endpoint, options.now),
      },
      schema: idsSchema,
    });
    rows.push(...contents);
    // Fewer rows than asked: items were unpublished since the count; the window ends here.
    if (contents.length < take) break;
    read += take;
  }
  return rows;
}

/**
 * The entries of sitemap number `index` (0-based): the static routes first, then published
 * posts, audios, movies, jobs and feature issues. Empty past the last file.
 */
export async function readSitemap(
  client: Reader,
  siteUrl: string,
  index: number,
  options: SitemapReadOptions = {},
): Promise<SitemapEntry[]> {
  const maxUrls = options.maxUrls ?? SITEMAP_MAX_URLS;
  // One moment for the whole file: the plan and the reads agree on which listings are open.
  const now = options.now ?? new Date();
  const summary = await readSitemapSummary(client, { now });
  const window = sitemapWindow(segmentsOf(summary), index, maxUrls);
  const entries: SitemapEntry[] = [];
  for (const read of window) {
    if (read.key === 'static') {
      // Only the file that lists the static pages needs their dates.
      const pages = await readPageDates(client);
      const newest = { ...summary.newest, ...pages.newest };
      entries.push(
        ...staticEntries(siteUrl, newest, undefined, pages.noIndex).slice(
          read.offset,
          read.offset + read.limit,
        ),
      );
      continue;
    }
    const items = await readIdRange(client, read.key, read.offset, read.limit, { ...options, now });
    entries.push(...itemEntries(siteUrl, read.key, items));
  }
  return entries;
}
