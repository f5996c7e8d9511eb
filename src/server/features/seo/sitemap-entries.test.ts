// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  SITEMAP_MAX_URLS,
  SITEMAP_STATIC_ROUTES,
  itemEntries,
  lastModifiedOf,
  latestDate,
  sitemapCount,
  sitemapIndexXml,
  sitemapWindow,
  siteUrlOf,
  staticEntries,
} from './sitemap-entries';

const SITE = 'https://axis.example.jp';

describe('the static routes', () => {
  it('lists every public route once, and none of the private or noindex ones', () => {
    const paths = SITEMAP_STATIC_ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/',
        '/posts',
        '/audios',
        '/movies',
        '/series',
        '/feature',
        '/insight',
        '/jobs',
        '/service-plans',
        '/about',
        '/faq',
        '/contact',
        '/terms',
        '/specified-commercial-transactions',
        '/studio',
      ]),
    );
    for (const hidden of [
      '/connect',
      '/search',
      '/posts/bookmark',
      '/account',
      '/login',
      '/sign-up',
      '/admin',
    ])
      expect(
        paths.some((p) => p === hidden || p.startsWith(`${hidden}/`)),
        hidden,
      ).toBe(false);
  });

  it('dates each page by the newest revision of the content it shows', () => {
    const entries = staticEntries(SITE, {
      posts: '2026-03-01T00:00:00.000Z',
      audios: '2026-02-10T00:00:00.000Z',
      movies: '2026-01-05T09:00:00+09:00',
      jobs: undefined,
      about: '2025-12-24T00:00:00.000Z',
    });
    const byUrl = new Map(entries.map((e) => [e.url, e]));
    expect(byUrl.get(`${SITE}/`)?.lastModified).toBe('2026-03-01T00:00:00.000Z');
    expect(byUrl.get(`${SITE}/posts`)?.lastModified).toBe('2026-03-01T00:00:00.000Z');
    expect(byUrl.get(`${SITE}/audios`)?.lastModified).toBe('2026-02-10T00:00:00.000Z');
    expect(byUrl.get(`${SITE}/movies`)?.lastModified).toBe('2026-01-05T00:00:00.000Z');
    expect(byUrl.get(`${SITE}/about`)?.lastModified).toBe('2025-12-24T00:00:00.000Z');
    // Nothing known: no date rather than a made-up one.
    expect(byUrl.get(`${SITE}/jobs`)).not.toHaveProperty('lastModified');
    expect(byUrl.get(`${SITE}/contact`)).not.toHaveProperty('lastModified');
    expect(byUrl.get(`${SITE}/service-plans`)).not.toHaveProperty('lastModified');
    expect(byUrl.get(`${SITE}/`)).toMatchObject({ changeFrequency: 'daily', priority: 1 });
  });
});

describe('item entries', () => {
  it('builds each detail URL on SITE_URL with the last modification', () => {
    const items = [
      { id: 'a1', revisedAt: '2026-02-01T10:00:00.000Z', updatedAt: '2026-02-03T10:00:00.000Z' },
      { id: 'b2', updatedAt: '2026-01-01T00:00:00.000Z' },
      { id: 'c3' },
    ];
    expect(itemEntries(SITE, 'posts', items)).toEqual([
      // revisedAt wins: updatedAt also moves when a draft of a published post is saved.
      { url: `${SITE}/posts/a1`, lastModified: '2026-02-01T10:00:00.000Z' },
      { url: `${SITE}/posts/b2`, lastModified: '2026-01-01T00:00:00.000Z' },
      { url: `${SITE}/posts/c3` },
    ]);
    expect(itemEntries(SITE, 'audios', [{ id: 'x' }])[0]?.url).toBe(`${SITE}/audios/x`);
    expect(itemEntries(SITE, 'movies', [{ id: 'x' }])[0]?.url).toBe(`${SITE}/movies/x`);
    expect(itemEntries(SITE, 'jobs', [{ id: 'x' }])[0]?.url).toBe(`${SITE}/jobs/x`);
    expect(itemEntries(SITE, 'categories', [{ id: 'x' }])[0]?.url).toBe(`${SITE}/feature/x`);
  });

  it('encodes an id that is not URL-safe instead of breaking the URL', () => {
    expect(itemEntries(SITE, 'posts', [{ id: 'a b/c' }])[0]?.url).toBe(`${SITE}/posts/a%20b%2Fc`);
  });
});

describe('dates', () => {
  it('normalises to ISO 8601 in UTC and ignores unreadable values', () => {
    expect(lastModifiedOf({ revisedAt: 'garbage', updatedAt: '2026-05-01T09:00:00+09:00' })).toBe(
      '2026-05-01T00:00:00.000Z',
    );
    expect(lastModifiedOf({ revisedAt: null, updatedAt: null })).toBeUndefined();
    expect(latestDate(['2026-01-01T00:00:00Z', undefined, '2026-02-01T00:00:00Z', 'x'])).toBe(
      '2026-02-01T00:00:00.000Z',
    );
    expect(latestDate([])).toBeUndefined();
  });

  it('joins paths to SITE_URL with exactly one slash', () => {
    expect(siteUrlOf(SITE, '/')).toBe(`${SITE}/`);
    expect(siteUrlOf(`${SITE}/`, '/posts')).toBe(`${SITE}/posts`);
    expect(siteUrlOf(SITE, 'faq')).toBe(`${SITE}/faq`);
  });
});

describe('splitting past 50,000 URLs', () => {
  it('needs one file up to 50,000 URLs, then one more per 50,000', () => {
    expect(SITEMAP_MAX_URLS).toBe(50_000);
    expect(sitemapCount(0)).toBe(1);
    expect(sitemapCount(50_000)).toBe(1);
    expect(sitemapCount(50_001)).toBe(2);
    expect(sitemapCount(150_000)).toBe(3);
    expect(sitemapCount(7, 3)).toBe(3);
  });

  const segments = [
    { key: 'static', count: 13 },
    { key: 'posts', count: 60_000 },
    { key: 'audios', count: 0 },
    { key: 'movies', count: 45_000 },
    { key: 'jobs', count: 10 },
  ];

  it('cuts the segments laid end to end into windows of 50,000', () => {
    expect(sitemapWindow(segments, 0)).toEqual([
      { key: 'static', offset: 0, limit: 13 },
      { key: 'posts', offset: 0, limit: 49_987 },
    ]);
    expect(sitemapWindow(segments, 1)).toEqual([
      { key: 'posts', offset: 49_987, limit: 10_013 },
      { key: 'movies', offset: 0, limit: 39_987 },
    ]);
    expect(sitemapWindow(segments, 2)).toEqual([
      { key: 'movies', offset: 39_987, limit: 5013 },
      { key: 'jobs', offset: 0, limit: 10 },
    ]);
    expect(sitemapWindow(segments, 3)).toEqual([]);
    expect(sitemapWindow(segments, -1)).toEqual([]);
    expect(sitemapWindow(segments, 0.5)).toEqual([]);
  });

  it('covers every URL exactly once, whatever the window size', () => {
    const small = [
      { key: 'a', count: 3 },
      { key: 'b', count: 5 },
      { key: 'c', count: 2 },
    ];
    for (const size of [1, 2, 3, 4, 7, 10, 11]) {
      const seen: string[] = [];
      for (let i = 0; i < sitemapCount(10, size); i++) {
        const reads = sitemapWindow(small, i, size);
        expect(reads.reduce((n, r) => n + r.limit, 0)).toBeLessThanOrEqual(size);
        for (const r of reads)
          for (let k = 0; k < r.limit; k++) seen.push(`${r.key}${r.offset + k}`);
      }
      expect(seen).toEqual(['a0', 'a1', 'a2', 'b0', 'b1', 'b2', 'b3', 'b4', 'c0', 'c1']);
    }
  });
});

describe('the sitemap index', () => {
  it('lists /sitemap/0.xml … as a well-formed sitemapindex', () => {
    const xml = sitemapIndexXml(SITE, 3);
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
    expect(doc.documentElement.nodeName).toBe('sitemapindex');
    expect(doc.documentElement.namespaceURI).toBe('http://www.sitemaps.org/schemas/sitemap/0.9');
    expect([...doc.getElementsByTagName('loc')].map((l) => l.textContent)).toEqual([
      `${SITE}/sitemap/0.xml`,
      `${SITE}/sitemap/1.xml`,
      `${SITE}/sitemap/2.xml`,
    ]);
  });

  it('escapes a SITE_URL with XML special characters', () => {
    const xml = sitemapIndexXml('https://example.jp/a&b', 1);
    expect(xml).toContain('<loc>https://example.jp/a&amp;b/sitemap/0.xml</loc>');
  });
});

describe('sitemapXml', () => {
  it('writes a urlset with escaped locations and ISO last modifications', async () => {
    const { sitemapXml } = await import('./sitemap-entries');
    const xml = sitemapXml([
      { url: 'https://example.jp/posts?a=1&b=2', lastModified: '2026-11-20T01:02:03.000Z' },
      { url: 'https://example.jp/about' },
    ]);
    expect(xml).toContain('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
    expect(xml).toContain(
      '<url><loc>https://example.jp/posts?a=1&amp;b=2</loc><lastmod>2026-11-20T01:02:03.000Z</lastmod></url>',
    );
    expect(xml).toContain('<url><loc>https://example.jp/about</loc></url>');
  });
});
