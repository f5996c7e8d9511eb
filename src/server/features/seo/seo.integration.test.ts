import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { seedDemoContent } from '@/server/features/seed/seed';
import { listContents } from '@/server/services/cms/store';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import type { Database } from '@/server/platform/db/client';
import { createTestDatabase } from '@test-support/db/test-database';
import { FEED_SIZE, feedResponse } from './feed';
import { readSitemap, readSitemapIds } from './sitemap';
import { SITEMAP_STATIC_ROUTES } from './sitemap-entries';
import { sitemapIndexResponse } from './sitemap-index';
import { createContent, updateContent } from '@/server/services/cms/writes';

// The sitemap and the feed read through the site's content client against the built-in
// service on a real database with the demo corpus: only published items are listed, and a
// members' post gives the feed its title and description, never its body.

const SITE = 'https://axis.example.jp';
const def = (endpoint: string) => findEndpoint(endpoint)!;

const MEMBERS_MARK = 'KAIINGENTEI7f3a';
const PUBLIC_MARK = 'KOUKAIZENBUN9c1d';
const DRAFT_MARK = 'SHITAGAKI2b8e';
/** The moment the sitemaps describe: 2026-11-24 12:00 in Japan. */
const NOW = new Date('2026-11-24T03:00:00Z');

describe('sitemap and feed on the built-in content service', () => {
  let database: Database;
  let site: SiteContent;
  let feed: string;
  let urls: string[];

  const published = async (endpoint: string) => {
    const answer = await listContents(
      database.db,
      def(endpoint),
      { limit: 1000, offset: 0, depth: 0, fields: [['id'], ['revisedAt']] },
      { kind: 'published' },
    );
    return answer.contents as { id: string; revisedAt: string }[];
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.db;
    await seedDemoContent(db);
    site = createSiteContent({ db });

    // Never published: drafts and closed items of every listed endpoint.
    for (const endpoint of ['posts', 'audios', 'movies', 'jobs']) {
      const title = `${DRAFT_MARK} 下書き`;
      await createContent(db, def(endpoint), {
        id: `draft-${endpoint}`,
        body: endpoint === 'jobs' ? { title } : { title, isPublicPreview: true },
        status: 'draft',
      });
    }
    await createContent(db, def('categories'), {
      id: 'draft-category',
      body: { name: `${DRAFT_MARK} 特集` },
      status: 'draft',
    });
    await createContent(db, def('posts'), {
      id: 'closed-post',
      body: { title: `${DRAFT_MARK} 非公開`, isPublicPreview: true },
      status: 'closed',
    });

    // Job listings around their closing day: open through it, gone the day after.
    for (const [id, day] of [
      ['closed-job', '2026-11-23'],
      ['closing-today-job', '2026-11-24'],
    ] as const)
      await createContent(db, def('jobs'), {
        id,
        body: { title: `求人 ${id}`, closingDate: `${day}T23:59:59+09:00` },
        status: 'publish',
      });

    // Published now, so they are the newest posts in the feed.
    await createContent(db, def('posts'), {
      id: 'members-post',
      body: {
        title: '会員限定の新しい記事',
        description: '会員限定の記事の概要です。',
        isPublicPreview: false,
        body: `<p>導入の段落です。</p><hr data-members-divider><p>${MEMBERS_MARK} ここからは会員だけが読める本文です。</p>`,
      },
      status: 'publish',
    });
    await createContent(db, def('posts'), {
      id: 'public-post',
      body: {
        title: '誰でも読める記事',
        description: '公開記事の概要です。',
        isPublicPreview: true,
        body: `<p>${PUBLIC_MARK} 全文を公開しています。<img src="/uploads/demo/x.jpg" alt=""></p>`,
      },
      status: 'publish',
    });
    // A published post with a newer draft: the feed and sitemap show the published version.
    await createContent(db, def('posts'), {
      id: 'revised-post',
      body: { title: '公開中の題', isPublicPreview: false },
      status: 'publish',
    });
    await updateContent(
      db,
      def('posts'),
      'revised-post',
      { title: `${DRAFT_MARK} 下書きの題`, body: `<p>${DRAFT_MARK}</p>` },
      { draft: true },
    );

    // An editor's noindex (the seo custom field) keeps a page out of the sitemap.
    await createContent(db, def('posts'), {
      id: 'noindex-post',
      body: { title: '検索に出さない記事', seo: { noIndex: true, metaTitle: 'x' } },
      status: 'publish',
    });
    await updateContent(
      db,
      def('studio'),
      '',
      { title: 'スタジオ', seo: { noIndex: true } },
      { draft: false },
    );

    urls = (await readSitemap(site.client, SITE, 0, { now: NOW })).map((e) => e.url);
    feed = await (await feedResponse(site.client, { siteUrl: SITE, siteName: 'AXIS' })).text();
  });

  afterAll(async () => {
    site?.dispose();
    await database?.close();
  });

  it('lists the static routes and exactly the published posts, audios, movies, jobs, features, writers and series', async () => {
    const expected = [
      ...SITEMAP_STATIC_ROUTES.filter((r) => r.path !== '/studio').map((r) => `${SITE}${r.path}`),
      ...(await published('posts'))
        .filter((p) => p.id !== 'noindex-post')
        .map((p) => `${SITE}/posts/${p.id}`),
      ...(await published('audios')).map((p) => `${SITE}/audios/${p.id}`),
      ...(await published('movies')).map((p) => `${SITE}/movies/${p.id}`),
      ...(await published('jobs'))
        .filter((p) => p.id !== 'closed-job')
        .map((p) => `${SITE}/jobs/${p.id}`),
      ...(await published('categories')).map((p) => `${SITE}/feature/${p.id}`),
      ...(await published('writers')).map((p) => `${SITE}/authors/${p.id}`),
      ...(await published('series')).map((p) => `${SITE}/series/${p.id}`),
    ];
    expect((await published('posts')).length).toBeGreaterThan(60); // the demo corpus is there
    expect(new Set(urls)).toEqual(new Set(expected));
    expect(urls).toHaveLength(expected.length);
    expect(urls).toContain(`${SITE}/posts/members-post`);
    expect(urls).toContain(`${SITE}/posts/revised-post`);
  });

  it('lists a job listing through its closing day and drops it the day after', async () => {
    expect(urls).toContain(`${SITE}/jobs/closing-today-job`);
    expect(urls).not.toContain(`${SITE}/jobs/closed-job`);
    const tomorrow = new Date('2026-11-25T03:00:00Z');
    const later = (await readSitemap(site.client, SITE, 0, { now: tomorrow })).map((e) => e.url);
    expect(later).not.toContain(`${SITE}/jobs/closing-today-job`);
    expect(later).toHaveLength(urls.length - 1);
  });

  it('never lists drafts, closed items or members-only areas', () => {
    for (const id of [
      'draft-posts',
      'draft-audios',
      'draft-movies',
      'draft-jobs',
      'draft-category',
      'closed-post',
    ])
      expect(
        urls.some((u) => u.endsWith(`/${id}`)),
        id,
      ).toBe(false);
    expect(urls.some((u) => u.includes('/connect'))).toBe(false);
    expect(urls).not.toContain(`${SITE}/posts/noindex-post`);
    expect(urls).not.toContain(`${SITE}/studio`);
    expect(urls.some((u) => /\/(search|account|login|sign-up|admin)\b/.test(u))).toBe(false);
  });

  it('dates each item by its published revision, not by a later draft', async () => {
    const entries = await readSitemap(site.client, SITE, 0, { now: NOW });
    const revised = entries.find((e) => e.url === `${SITE}/posts/revised-post`);
    const row = (await published('posts')).find((p) => p.id === 'revised-post')!;
    expect(revised?.lastModified).toBe(new Date(row.revisedAt).toISOString());
    // The information pages are dated by their CMS object, the lists by their newest item.
    const byUrl = new Map(entries.map((e) => [e.url, e.lastModified]));
    expect(byUrl.get(`${SITE}/about`)).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(byUrl.get(`${SITE}/posts`)).toBe(
      [...byUrl.entries()]
        .filter(([url]) => url.startsWith(`${SITE}/posts/`))
        .map(([, date]) => String(date))
        .sort()
        .at(-1),
    );
    expect(byUrl.get(`${SITE}/contact`)).toBeUndefined();
    const items = entries.filter((e) => /\/(posts|audios|movies|jobs|feature)\/./.test(e.url));
    expect(items.length).toBeGreaterThan(60);
    for (const item of items) expect(item.lastModified, item.url).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('splits into files that together list the same URLs once', async () => {
    const options = { maxUrls: 25, pageSize: 7, now: NOW };
    const ids = await readSitemapIds(site.client, options);
    expect(ids).toEqual(Array.from({ length: Math.ceil(urls.length / 25) }, (_, id) => ({ id })));
    const split: string[] = [];
    for (const { id } of ids) {
      const file = await readSitemap(site.client, SITE, id, options);
      expect(file.length).toBeLessThanOrEqual(25);
      split.push(...file.map((e) => e.url));
    }
    expect(split).toEqual(urls);
    expect(await readSitemap(site.client, SITE, ids.length, options)).toEqual([]);

    const index = await (await sitemapIndexResponse(site.client, SITE, 25, NOW)).text();
    for (const { id } of ids) expect(index).toContain(`<loc>${SITE}/sitemap/${id}.xml</loc>`);
    expect(index).not.toContain(`/sitemap/${ids.length}.xml`);
  });

  it('feeds the newest published posts, newest first, without drafts', async () => {
    const items = feed.match(/<item>[\s\S]*?<\/item>/g) ?? [];
    expect(items).toHaveLength(FEED_SIZE);
    const guids = items.map((i) => /<guid isPermaLink="true">([^<]+)<\/guid>/.exec(i)?.[1]);
    const newest = (
      await listContents(
        database.db,
        def('posts'),
        {
          limit: FEED_SIZE,
          offset: 0,
          depth: 0,
          fields: [['id']],
          orders: [{ field: 'publishedAt', direction: 'desc' }],
        },
        { kind: 'published' },
      )
    ).contents.map((p) => `${SITE}/posts/${String(p.id)}`);
    expect(guids).toEqual(newest);
    expect(feed).not.toContain(DRAFT_MARK);
    expect(feed).not.toContain('closed-post');
    expect(feed).toContain('<title>公開中の題</title>');
  });

  it('gives a members’ post its title and description only, a public one its body', async () => {
    const members = (feed.match(/<item>[\s\S]*?<\/item>/g) ?? []).find((i) =>
      i.includes('/posts/members-post<'),
    );
    expect(members).toContain('<title>会員限定の新しい記事</title>');
    expect(members).toContain('<description>会員限定の記事の概要です。</description>');
    expect(members).not.toContain('content:encoded');
    expect(feed).not.toContain(MEMBERS_MARK);
    expect(feed).not.toContain('導入の段落です');

    expect(feed).toContain(PUBLIC_MARK);
    expect(feed).toContain('<img src="https://axis.example.jp/uploads/demo/x.jpg"');

    // Nor does any demo members' post give away any sentence of its body.
    const posts = await listContents(
      database.db,
      def('posts'),
      {
        limit: 1000,
        offset: 0,
        depth: 0,
        fields: [['isPublicPreview'], ['body'], ['title'], ['description']],
      },
      { kind: 'published' },
    );
    // What is public anyway: every title and description, and the public-preview bodies.
    const publicText = posts.contents
      .map((p) =>
        [p.title, p.description, p.isPublicPreview === true ? p.body : '']
          .map((v) => (typeof v === 'string' ? v.replace(/<[^>]+>/g, '') : ''))
          .join('\n'),
      )
      .join('\n');
    const gated = posts.contents
      .filter((p) => p.isPublicPreview !== true)
      .flatMap((p) => (typeof p.body === 'string' ? p.body : '').split(/<[^>]+>|。/))
      .map((s) => s.trim())
      .filter((s) => s.length >= 12 && !publicText.includes(s));
    expect(gated.length).toBeGreaterThan(100);
    for (const sentence of gated) expect(feed.includes(sentence), sentence).toBe(false);
  });
});
