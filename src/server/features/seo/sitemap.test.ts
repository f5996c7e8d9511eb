import { describe, expect, it, vi } from 'vitest';
import type { ContentClient, ContentQueries, GetRequest } from '@/server/features/content/client';
import { openListingsFilter } from '@/lib/jobs';
import { INDEXABLE_FILTER, SITEMAP_STATIC_ROUTES } from './sitemap-entries';
import { readSitemap, readSitemapIds, readSitemapSummary, sitemapReadOptions } from './sitemap';

const SITE = 'https://axis.example.jp';
type Row = { id: string; createdAt: string; revisedAt: string; updatedAt: string };

const rows = (prefix: string, n: number): Row[] =>
  Array.from({ length: n }, (_, i) => {
    const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
    return { id: `${prefix}${i}`, createdAt: at, revisedAt: at, updatedAt: at };
  });

/** A content service answering the sitemap's reads from memory, recording each request. */
function fakeClient(lists: Record<string, Row[]>, pages: Record<string, string> = {}) {
  const requests: { endpoint: string; queries: ContentQueries }[] = [];
  const notFound = Object.assign(new Error('fetch API response status: 404'), {
    status: 404,
    url: 'x',
    originalError: undefined,
  });
  const get = vi.fn(({ endpoint, queries = {}, schema }: GetRequest<unknown>) => {
    requests.push({ endpoint, queries });
    const list = lists[endpoint];
    let answer: unknown;
    if (!list) {
      const revisedAt = pages[endpoint];
      if (!revisedAt) return Promise.reject(notFound);
      answer = { revisedAt, updatedAt: revisedAt };
    } else {
      const sorted =
        queries.orders === '-revisedAt'
          ? [...list].sort((a, b) => b.revisedAt.localeCompare(a.revisedAt))
          : queries.orders === 'createdAt'
            ? [...list].sort((a, b) => a.createdAt.localeCompare(b.createdAt))
            : list;
      const offset = queries.offset ?? 0;
      const slice = sorted.slice(offset, offset + (queries.limit ?? 10));
      const fields = String(queries.fields).split(',') as (keyof Row)[];
      answer = {
        totalCount: list.length,
        offset,
        limit: queries.limit,
        contents: slice.map((r) => Object.fromEntries(fields.map((f) => [f, r[f]]))),
      };
    }
    return Promise.resolve(schema ? schema.parse(answer) : answer);
  });
  return { client: { get } as unknown as Pick<ContentClient, 'get'>, requests };
}

const corpus = () => ({
  posts: rows('p', 7),
  audios: rows('a', 2),
  movies: rows('m', 0),
  jobs: rows('j', 3),
  categories: rows('c', 1),
  series: rows('s', 2),
  writers: rows('w', 1),
});

describe('reading the sitemaps', () => {
  it('counts every listed endpoint with one limit=1 read each, narrowed to the dates', async () => {
    const { client, requests } = fakeClient(corpus());
    const summary = await readSitemapSummary(client);
    expect(summary.counts).toEqual({
      posts: 7,
      audios: 2,
      movies: 0,
      jobs: 3,
      categories: 1,
      writers: 1,
      series: 2,
    });
    expect(summary.newest.posts).toBe('2026-01-01T00:00:06.000Z');
    expect(summary.newest.series).toBe('2026-01-01T00:00:01.000Z');
    expect(summary.newest.movies).toBeUndefined();
    for (const r of requests)
      expect(r.queries).toMatchObject({
        limit: 1,
        orders: '-revisedAt',
        fields: 'revisedAt,updatedAt',
      });
  });

  it('lists the static routes, then every item, in one file when they fit', async () => {
    const { client, requests } = fakeClient(corpus(), { about: '2025-10-01T00:00:00.000Z' });
    const entries = await readSitemap(client, SITE, 0);
    const urls = entries.map((e) => e.url);
    expect(urls.slice(0, SITEMAP_STATIC_ROUTES.length)).toEqual(
      SITEMAP_STATIC_ROUTES.map((r) => `${SITE}${r.path}`),
    );
    expect(urls.slice(SITEMAP_STATIC_ROUTES.length)).toEqual([
      ...rows('p', 7).map((r) => `${SITE}/posts/${r.id}`),
      `${SITE}/audios/a0`,
      `${SITE}/audios/a1`,
      `${SITE}/jobs/j0`,
      `${SITE}/jobs/j1`,
      `${SITE}/jobs/j2`,
      `${SITE}/feature/c0`,
      `${SITE}/authors/w0`,
      `${SITE}/series/s0`,
      `${SITE}/series/s1`,
    ]);
    expect(entries.find((e) => e.url === `${SITE}/about`)?.lastModified).toBe(
      '2025-10-01T00:00:00.000Z',
    );
    // A page never published (404) has no date, and does not fail the sitemap.
    expect(entries.find((e) => e.url === `${SITE}/faq`)).not.toHaveProperty('lastModified');
    expect(entries.find((e) => e.url === `${SITE}/posts/p3`)?.lastModified).toBe(
      '2026-01-01T00:00:03.000Z',
    );
    // Ids are read with the dates only, oldest first.
    const idReads = requests.filter((r) => r.queries.fields === 'id,revisedAt,updatedAt');
    expect(idReads.map((r) => r.endpoint)).toEqual([
      'posts',
      'audios',
      'jobs',
      'categories',
      'writers',
      'series',
    ]);
    for (const r of idReads) expect(r.queries).toMatchObject({ orders: 'createdAt', depth: 0 });
    expect(await readSitemap(client, SITE, 1)).toEqual([]);
  });

  it('splits past the limit: each file reads only its own window, in pages', async () => {
    const { client, requests } = fakeClient(corpus(), { studio: '2025-09-09T00:00:00.000Z' });
    const options = { maxUrls: 10, pageSize: 4 };
    expect(await readSitemapIds(client, options)).toEqual([
      { id: 0 },
      { id: 1 },
      { id: 2 },
      { id: 3 },
    ]);
    const files: string[][] = [];
    const reads: (typeof requests)[] = [];
    for (const id of [0, 1, 2, 3]) {
      requests.length = 0;
      files.push((await readSitemap(client, SITE, id, options)).map((e) => e.url));
      reads.push([...requests]);
    }
    // 16 static routes and 16 items: 32 URLs cut every 10.
    expect(SITEMAP_STATIC_ROUTES).toHaveLength(16);
    expect(files.map((f) => f.length)).toEqual([10, 10, 10, 2]);
    const all = files.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(SITEMAP_STATIC_ROUTES.length + 7 + 2 + 3 + 1 + 1 + 2);
    expect(files[1]).toEqual([
      ...SITEMAP_STATIC_ROUTES.slice(10).map((r) => `${SITE}${r.path}`),
      ...rows('p', 4).map((r) => `${SITE}/posts/${r.id}`),
    ]);
    // The posts run over from the second file into the third.
    expect(files[2]?.slice(0, 2)).toEqual([`${SITE}/posts/p4`, `${SITE}/posts/p5`]);
    const idPages = (i: number) =>
      reads[i]!.filter((r) => r.queries.fields === 'id,revisedAt,updatedAt').map((r) => [
        r.endpoint,
        r.queries.offset,
        r.queries.limit,
      ]);
    expect(idPages(0)).toEqual([]);
    expect(idPages(1)).toEqual([['posts', 0, 4]]);
    expect(idPages(2)).toEqual([
      ['posts', 4, 3],
      ['audios', 0, 2],
      ['jobs', 0, 3],
      ['categories', 0, 1],
      ['writers', 0, 1],
    ]);
    expect(idPages(3)).toEqual([['series', 0, 2]]);
    // The static pages' dates are read only by the files that list static pages.
    expect(reads.map((r) => r.some((q) => q.endpoint === 'about'))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(files[1]).toContain(`${SITE}/studio`);
    const second = await readSitemap(client, SITE, 1, options);
    expect(second.find((e) => e.url === `${SITE}/studio`)?.lastModified).toBe(
      '2025-09-09T00:00:00.000Z',
    );
  });

  it('pauses between pages on a hosted service and not on the built-in one', async () => {
    expect(sitemapReadOptions(true)).toEqual({ pageSize: 1000, pauseMs: 0 });
    expect(sitemapReadOptions(false)).toEqual({ pageSize: 100, pauseMs: 1000 });
    const { client, requests } = fakeClient({ ...corpus(), posts: rows('p', 25) });
    const sleep = vi.fn(() => Promise.resolve());
    await readSitemap(client, SITE, 0, { pageSize: 10, pauseMs: 1000, sleep });
    const postPages = requests.filter(
      (r) => r.endpoint === 'posts' && r.queries.fields === 'id,revisedAt,updatedAt',
    );
    expect(postPages.map((r) => [r.queries.offset, r.queries.limit])).toEqual([
      [0, 10],
      [10, 10],
      [20, 5],
    ]);
    expect(sleep).toHaveBeenCalledTimes(2);
    expect(sleep).toHaveBeenCalledWith(1000);
  });

  it('reads only indexable items, and of the job listings those open at `now`', async () => {
    const { client, requests } = fakeClient(corpus());
    const now = new Date('2026-11-24T03:00:00Z');
    await readSitemap(client, SITE, 0, { now });
    const jobReads = requests.filter((r) => r.endpoint === 'jobs');
    // The count (the plan) and the ids: both with the same filter.
    expect(jobReads).toHaveLength(2);
    for (const r of jobReads)
      expect(r.queries.filters).toBe(`${INDEXABLE_FILTER}[and]${openListingsFilter(now)}`);
    const others = requests.filter((r) => r.endpoint !== 'jobs' && r.queries.filters);
    expect(new Set(others.map((r) => r.queries.filters))).toEqual(new Set([INDEXABLE_FILTER]));
    // Writers and series have no seo field: every published one is listed, unfiltered.
    expect(others.map((r) => r.endpoint)).not.toContain('series');
    expect(others.map((r) => r.endpoint)).not.toContain('writers');
  });

  it('fails loudly on a content error other than a missing page', async () => {
    const { client } = fakeClient(corpus());
    vi.mocked(client.get).mockRejectedValueOnce(new Error('fetch API response status: 500'));
    await expect(readSitemapSummary(client)).rejects.toThrow('500');
  });
});
