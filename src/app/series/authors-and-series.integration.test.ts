import { type ReactNode, createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { env } from '@/env';
import { SnackbarProvider } from '@/components/ui/snackbar-context.client';
import { findEndpoint } from '@/lib/cms/model';
import { movedPath } from '@/server/services/cms/redirects';
import { renameContent } from '@/server/services/cms/rename';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import type { Database } from '@/server/platform/db/client';
import { createTestDatabase } from '@test-support/db/test-database';
import { createContent } from '@/server/services/cms/writes';

// The author and series pages and the series feed as a request renders them, on the built-in
// content service with a real database: what they list and in which order, the 404s of unknown
// and malformed ids, and a feed that never carries members-only text.

const state = vi.hoisted(() => ({ site: undefined as SiteContent | undefined }));
vi.mock('@/server/features/content/site-content', async (importOriginal) =>
  (await import('@test-support/site-content-mock')).siteContentFromState(state, importOriginal),
);

const { default: AuthorPage, generateMetadata: authorMetadata } =
  await import('../authors/[writerId]/page');
const { default: SeriesItemPage, generateMetadata: seriesMetadata } =
  await import('./[seriesId]/page');
const { GET: seriesFeed } = await import('./[seriesId]/feed.xml/route');

const def = (endpoint: string) => findEndpoint(endpoint)!;
const MEMBERS_MARK = 'KAIINNOMI5e2c';
const DRAFT_MARK = 'SHITAGAKI8d1f';
const at = (day: number) => `2026-0${day}-01T00:00:00.000Z`;
const NOT_FOUND = 'NEXT_HTTP_ERROR_FALLBACK;404';

/** A page as the root layout holds it (the cards' bookmark buttons need the snackbar). */
const html = (page: ReactNode) => renderToStaticMarkup(createElement(SnackbarProvider, null, page));
const authorHtml = async (writerId: string, page?: string) =>
  html(
    await AuthorPage({
      params: Promise.resolve({ writerId }),
      searchParams: Promise.resolve(page ? { page } : {}),
    }),
  );
const seriesHtml = async (seriesId: string) =>
  html(await SeriesItemPage({ params: Promise.resolve({ seriesId }) }));
const feedOf = (seriesId: string) =>
  seriesFeed(new Request('http://localhost/'), { params: Promise.resolve({ seriesId }) });

describe('author pages, series pages and series feeds', () => {
  let database: Database;

  beforeAll(async () => {
    database = await createTestDatabase();
    const db = database.db;
    const create = (
      endpoint: string,
      id: string,
      body: Record<string, unknown>,
      status = 'publish',
    ) => createContent(db, def(endpoint), { id, body, status: status as 'publish' });
    await create('writers', 'writer-busy', {
      name: '佐藤 花子',
      nameKana: 'さとう はなこ',
      role: '編集者',
      profile: '建築と工芸の記事を書いています。',
      website: 'https://hanako.example',
    });
    await create('writers', 'writer-new', { name: '新井 一郎' });
    await create('writers', 'writer-draft', { name: '下書き 執筆者' }, 'draft');
    await create('series', 'series-craft', {
      title: '手しごとの現在',
      description: '工芸の現場を訪ねる連載。',
      writers: ['writer-busy'],
    });
    await create('series', 'series-empty', { title: 'これからの連載' });
    // Episodes: created out of order; the series lists them by 連載内の順番.
    await create('posts', 'craft-2', {
      title: '第二回 真鍮',
      isPublicPreview: false,
      series: 'series-craft',
      seriesOrder: 2,
      writers: ['writer-busy'],
      body: `<p>真鍮の導入。</p><hr data-members-divider><p>${MEMBERS_MARK} 会員だけの本文。</p>`,
      publishedAt: at(3),
    });
    await create('posts', 'craft-1', {
      title: '第一回 漆',
      isPublicPreview: true,
      series: 'series-craft',
      seriesOrder: 1,
      writers: ['writer-busy'],
      body: '<p>漆の全文を公開しています。</p>',
      publishedAt: at(2),
    });
    await create('posts', 'craft-3', {
      title: '第三回 ガラス',
      isPublicPreview: false,
      series: 'series-craft',
      seriesOrder: 3,
      writers: ['writer-busy'],
      body: `<p>ガラスの導入。</p><hr data-members-divider><p>${MEMBERS_MARK} 続き。</p>`,
      publishedAt: at(5),
    });
    await create(
      'posts',
      'craft-draft',
      { title: `${DRAFT_MARK} 下書き`, series: 'series-craft', writers: ['writer-busy'] },
      'draft',
    );
    await create('audios', 'busy-audio', {
      title: '工芸を語る',
      isPublicPreview: false,
      writers: ['writer-busy'],
      publishedAt: at(4),
    });
    await create('movies', 'busy-movie', {
      title: '工房の一日',
      isPublicPreview: true,
      writers: ['writer-busy'],
      publishedAt: at(1),
    });
    state.site = createSiteContent({ db });
  });

  afterAll(async () => {
    state.site?.dispose();
    state.site = undefined;
    await database.close();
  });

  it("lists a writer's posts, audios and movies newest first, with their access labels", async () => {
    const html = await authorHtml('writer-busy');
    expect(html).toContain('佐藤 花子');
    expect(html).toContain('さとう はなこ');
    expect(html).toContain('建築と工芸の記事を書いています。');
    expect(html).toContain('5 件の記事・番組');
    // The series they write, linked to its page.
    expect(html).toMatch(/担当の(<wbr\/>)?連載.*href="\/series\/series-craft"/s);
    const order = [
      '/posts/craft-3',
      '/audios/busy-audio',
      '/posts/craft-2',
      '/posts/craft-1',
      '/movies/busy-movie',
    ];
    const positions = order.map((href) => html.indexOf(`href="${href}"`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(html).toContain('無料公開');
    expect(html).toMatch(/会員限定/);
    expect(html).not.toContain(DRAFT_MARK);
    expect(html).not.toContain(MEMBERS_MARK);
    // Person structured data on a profile page.
    expect(html).toContain('"@type":"ProfilePage"');
    expect(html).toContain('"alternateName":"さとう はなこ"');
    const meta = await authorMetadata({
      params: Promise.resolve({ writerId: 'writer-busy' }),
      searchParams: Promise.resolve({}),
    });
    expect(meta.title).toBe('佐藤 花子');
    expect(meta.alternates?.canonical).toBe(`${env().SITE_URL}/authors/writer-busy`);
  });

  it('pages a long list and 404s past its end', async () => {
    // 5 pieces, 12 a page: one page; page 2 does not exist.
    await expect(authorHtml('writer-busy', '2')).rejects.toThrow(NOT_FOUND);
  });

  it('says so when a writer has nothing published yet', async () => {
    const html = await authorHtml('writer-new');
    expect(html).toContain('新井 一郎さんの記事はまだありません。');
    expect(html).toContain('0 件の記事・番組');
  });

  it.each([
    ['an unknown writer', 'writer-nobody'],
    ['an unpublished writer', 'writer-draft'],
    ['a malformed id', '../admin'],
    ['a too long id', 'a'.repeat(51)],
    ['an id with a filter in it', 'x[or]id[exists]'],
  ])('answers 404 for %s', async (_, id) => {
    await expect(authorHtml(id)).rejects.toThrow(NOT_FOUND);
    await expect(seriesHtml(id)).rejects.toThrow(NOT_FOUND);
    expect((await feedOf(id)).status).toBe(404);
  });

  it('lists a series in its order, numbered, with each episode’s access label', async () => {
    const html = await seriesHtml('series-craft');
    expect(html).toContain('手しごとの現在');
    expect(html).toContain('工芸の現場を訪ねる連載。');
    expect(html).toContain('全 3 回');
    const positions = ['craft-1', 'craft-2', 'craft-3'].map((id) => html.indexOf(`/posts/${id}"`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(html).toMatch(/第1回.*第一回 漆.*第2回.*第二回 真鍮.*第3回/s);
    expect(html).toContain('無料公開');
    expect(html).toContain('<a href="/authors/writer-busy" rel="author" data-nav="">佐藤 花子</a>');
    expect(html).toContain('href="/series/series-craft/feed.xml"');
    expect(html).toContain('"@type":"CreativeWorkSeries"');
    expect(html).not.toContain(DRAFT_MARK);
    expect(html).not.toContain(MEMBERS_MARK);
    const meta = await seriesMetadata({ params: Promise.resolve({ seriesId: 'series-craft' }) });
    expect(meta.alternates?.types).toEqual({
      'application/rss+xml': [
        expect.objectContaining({ url: `${env().SITE_URL}/feed.xml` }),
        {
          url: `${env().SITE_URL}/series/series-craft/feed.xml`,
          title: '連載「手しごとの現在」の新着記事',
        },
      ],
    });
  });

  it('says so when a series has no episode yet', async () => {
    expect(await seriesHtml('series-empty')).toContain('この連載の記事は準備中です。');
  });

  it("gives a series its own feed: its posts only, never members' text", async () => {
    const answer = await feedOf('series-craft');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    const xml = await answer.text();
    expect(xml).toContain('<title>連載「手しごとの現在」 | ');
    expect(xml).toMatch(/<link>[^<]*\/series\/series-craft<\/link>/);
    expect(xml).toMatch(/<atom:link href="[^"]*\/series\/series-craft\/feed.xml" rel="self"/);
    const links = [...xml.matchAll(/<item><title>[^<]*<\/title><link>([^<]*)<\/link>/g)].map((m) =>
      m[1]!.replace(/^.*\/posts\//, ''),
    );
    expect(links).toEqual(['craft-3', 'craft-2', 'craft-1']);
    expect(xml).toContain('漆の全文を公開しています。');
    expect(xml).not.toContain(MEMBERS_MARK);
    expect(xml).not.toContain('真鍮の導入');
    expect(xml).not.toContain(DRAFT_MARK);
    expect(xml).not.toContain('busy-audio');
    const empty = await (await feedOf('series-empty')).text();
    expect(empty).not.toContain('<item>');
  });

  it('leads a renamed writer or series from the old URL to the new one, feed included', async () => {
    const db = database.db;
    const ctx = { actor: 'user:editor' };
    await createContent(db, def('writers'), {
      id: 'old-writer',
      body: { name: '改名 前' },
      status: 'publish',
    });
    await createContent(db, def('series'), {
      id: 'old-series',
      body: { title: '改名する連載' },
      status: 'publish',
    });
    await renameContent(db, def('writers'), 'old-writer', 'new-writer', ctx);
    await renameContent(db, def('series'), 'old-series', 'new-series', ctx);
    expect(await movedPath(db, '/authors/old-writer')).toBe('/authors/new-writer');
    expect(await movedPath(db, '/series/old-series')).toBe('/series/new-series');
    expect(await movedPath(db, '/series/old-series/feed.xml')).toBe('/series/new-series/feed.xml');
    expect(await movedPath(db, '/authors/new-writer')).toBeNull();
  });
});
