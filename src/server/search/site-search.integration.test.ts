import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/server/cms/model';
import { createContent } from '@/server/cms/store';
import { type SiteContent, createSiteContent } from '@/server/content/site-content';
import type { Database } from '@/server/db/client';
import { createTestDatabase } from '@/server/db/testing/test-database';
import {
  SEARCH_PAGE_SIZE,
  type SearchHit,
  type SearchRequest,
  type SearchResults,
  parseSearchRequest,
  searchSite,
  searchSuggestions,
} from './site-search';
import { segmentsText } from './snippet';

const def = (endpoint: string) => findEndpoint(endpoint)!;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();
const p = (text: string) => `<p>${text}</p>`;

// Planted after the lead of members' posts: the search may find those posts by it, but no
// snippet may ever show it.
const SECRET = '会員だけが読める結末には合言葉ホウセンカが隠されている。';
const SECRET_WORD = 'ホウセンカ';

const filler = (n: number) =>
  p(
    `設計者が手放したあとに積み重なる小さな変化を受け止められるかどうかが、建築の懐の深さを決めている。(${n})`,
  );

describe('site search on the built-in content service', () => {
  let database: Database;
  let site: SiteContent;
  const search = (request: Partial<SearchRequest>): Promise<SearchResults> =>
    searchSite(site.client, { q: '', type: 'all', page: 1, ...request });
  const allSnippets = (results: SearchResults) =>
    results.hits.map((hit) => segmentsText(hit.snippet)).join('\n');
  const marks = (hit: SearchHit) => [
    ...hit.title.filter((s) => s.match).map((s) => s.text),
    ...hit.snippet.filter((s) => s.match).map((s) => s.text),
  ];

  beforeAll(async () => {
    database = await createTestDatabase();
    site = createSiteContent({ db: database.db });
    const create = (endpoint: string, id: string, body: Record<string, unknown>) =>
      createContent(database.db, def(endpoint), { id, body, status: 'publish' });

    // 23 posts, 2 movies and 1 job share the word 余白; their dates interleave.
    for (let i = 1; i <= 23; i++) {
      await create('posts', `yohaku-${String(i).padStart(2, '0')}`, {
        title: `都市の余白 その${i}`,
        description: '余白についての連載記事。',
        body: p('本文の書き出し。') + filler(i),
        isPublicPreview: i % 2 === 0,
        publishedAt: day(i * 2),
      });
    }
    await create('movies', 'yohaku-movie-a', {
      title: '余白を撮る',
      description: '余白を主題にした映像作品。',
      isPublicPreview: false,
      publishedAt: day(45), // between post 22 (day 44) and post 23 (day 46)
    });
    await create('movies', 'yohaku-movie-b', {
      title: '映像の間合い',
      description: '画面の余白が語るもの。',
      isPublicPreview: true,
      publishedAt: day(100), // the newest of all
    });
    await create('jobs', 'yohaku-job', {
      title: '編集者募集',
      description: '余白のある誌面をつくる編集者を募集します。',
      body: p('仕事内容：特集の企画と編集。'),
      employmentType: ['正社員'],
      publishedAt: day(1), // the oldest
    });

    // A two-character word only in the body of a post; a katakana word across types.
    await create('posts', 'lacquer', {
      title: '器の話',
      description: '産地を訪ねて。',
      body: p('冒頭の段落。') + filler(1) + p('この町の漆器は、分業によって支えられてきた。'),
      isPublicPreview: true,
      publishedAt: day(200),
    });
    await create('audios', 'textile-audio', {
      title: '布の声',
      description: '染織家との対話。',
      transcript: p('テキスタイルの仕事は、糸を選ぶところから始まる。'),
      isPublicPreview: true,
      publishedAt: day(201),
    });
    await create('jobs', 'textile-job', {
      title: 'デザイナー募集',
      body: p('テキスタイルデザインの経験がある方を歓迎します。'),
      employmentType: ['契約社員'],
      location: '京都',
      publishedAt: day(202),
    });
    await create('posts', 'textile-post', {
      title: 'ｔｅｘｔｉｌｅ：テキスタイルの現在',
      isPublicPreview: false,
      publishedAt: day(203),
    });

    // Members' posts with the secret after the lead: behind a divider, and past the first
    // two blocks of a body without one. A public-preview post carries it too, as a control.
    await create('posts', 'secret-divider', {
      title: '会員限定の結末',
      description: '続きは会員の方だけがお読みいただけます。',
      body: p('リードの一段落目。') + p('リードの二段落目。') + '<hr>' + p(SECRET) + filler(2),
      isPublicPreview: false,
      publishedAt: day(300),
    });
    await create('posts', 'secret-blocks', {
      title: '区切りのない記事',
      body: p('一つ目の段落。') + p('二つ目の段落。') + p(SECRET),
      isPublicPreview: false,
      publishedAt: day(301),
    });
    await create('posts', 'secret-open', {
      title: '無料公開の記事',
      body: p('一つ目の段落。') + p('二つ目の段落。') + p(SECRET),
      isPublicPreview: true,
      publishedAt: day(302),
    });
    await create('audios', 'secret-audio', {
      title: '会員限定の音声',
      transcript: p('書き起こしの冒頭。') + p('二段落目。') + '<hr>' + p(SECRET),
      isPublicPreview: false,
      publishedAt: day(303),
    });

    // Connect is members-only: never searched.
    await create('connect', 'yohaku-connect', {
      title: '余白のある暮らし',
      body: p(`コミュニティの記事。${SECRET}`),
    });

    await create('categories', 'cat-a', { name: '建築の現在', issueNumber: 3 });
    await create('categories', 'cat-b', { name: 'タイポグラフィ', issueNumber: 4 });
    await create('tags', 'tag-a', { name: '素材' });
  }, 120_000);

  afterAll(async () => {
    site.dispose();
    await database.close();
  });

  it('finds a post by a two-character word that occurs only in its body, highlighted', async () => {
    const results = await search({ q: '漆器' });
    expect(results.hits.map((h) => h.id)).toEqual(['lacquer']);
    const [hit] = results.hits;
    expect(hit!.href).toBe('/posts/lacquer');
    expect(marks(hit!)).toEqual(['漆器']);
    expect(segmentsText(hit!.snippet)).toContain('この町の漆器は、分業によって支えられてきた。');
    expect(results.counts).toEqual({ all: 1, posts: 1, feature: 0, audios: 0, movies: 0, jobs: 0 });
  });

  it('finds a katakana word in every type, also from a half-width query', async () => {
    for (const q of ['テキスタイル', 'ﾃｷｽﾀｲﾙ']) {
      const results = await search({ q });
      expect(results.counts, q).toEqual({
        all: 3,
        posts: 1,
        feature: 0,
        audios: 1,
        movies: 0,
        jobs: 1,
      });
      // Newest first across the types.
      expect(results.hits.map((h) => `${h.type}/${h.id}`)).toEqual([
        'posts/textile-post',
        'jobs/textile-job',
        'audios/textile-audio',
      ]);
      for (const hit of results.hits) expect(marks(hit)).toContain('テキスタイル');
      expect(results.hits.map((h) => h.href)).toEqual([
        '/posts/textile-post',
        '/jobs/textile-job',
        '/audios/textile-audio',
      ]);
    }
    // Full-width latin in a title matches a half-width query.
    const latin = await search({ q: 'TEXTILE' });
    expect(latin.hits.map((h) => h.id)).toEqual(['textile-post']);
    expect(marks(latin.hits[0]!)).toEqual(['ｔｅｘｔｉｌｅ']);
  });

  it('counts every type and pages the merged list newest first', async () => {
    const first = await search({ q: '余白' });
    expect(first.counts).toEqual({ all: 26, posts: 23, feature: 0, audios: 0, movies: 2, jobs: 1 });
    expect(first.totalPages).toBe(3);
    const pages = [
      first,
      await search({ q: '余白', page: 2 }),
      await search({ q: '余白', page: 3 }),
    ];
    expect(pages.map((r) => r.hits.length)).toEqual([10, 10, 6]);
    const order = pages.flatMap((r) => r.hits.map((h) => h.id));
    expect(new Set(order).size).toBe(26);
    expect(order.slice(0, 4)).toEqual([
      'yohaku-movie-b',
      'yohaku-23',
      'yohaku-movie-a',
      'yohaku-22',
    ]);
    expect(order.at(-1)).toBe('yohaku-job');
    const dates = pages.flatMap((r) => r.hits.map((h) => Date.parse(h.date)));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    // Connect pages are not searched.
    expect(order).not.toContain('yohaku-connect');
  });

  it('pages one type, and shows the last page for a page past the end', async () => {
    const posts = await search({ q: '余白', type: 'posts', page: 3 });
    expect(posts.counts).toEqual({ all: 26, posts: 23, feature: 0, audios: 0, movies: 2, jobs: 1 });
    expect(posts.page).toBe(3);
    expect(posts.totalPages).toBe(3);
    expect(posts.hits.map((h) => h.id)).toEqual(['yohaku-03', 'yohaku-02', 'yohaku-01']);
    expect(posts.hits.every((h) => h.type === 'posts')).toBe(true);
    expect(posts.hits.map((h) => h.membersOnly)).toEqual([true, false, true]);

    const past = await search({ q: '余白', type: 'posts', page: 50 });
    expect(past.page).toBe(3);
    expect(past.hits.map((h) => h.id)).toEqual(posts.hits.map((h) => h.id));
    const pastAll = await search({ q: '余白', page: 50 });
    expect(pastAll.page).toBe(3);
    expect(pastAll.hits).toHaveLength(6);

    const movies = await search({ q: '余白', type: 'movies' });
    expect(movies.hits.map((h) => h.id)).toEqual(['yohaku-movie-b', 'yohaku-movie-a']);
    expect(movies.totalPages).toBe(1);
    const audios = await search({ q: '余白', type: 'audios', page: 2 });
    expect(audios).toMatchObject({ page: 1, totalPages: 1, hits: [] });
  });

  it('never shows the part of a members’ item after its lead in a snippet, whatever is searched', async () => {
    const queries = [SECRET, SECRET_WORD, `${SECRET_WORD} 結末`, '合言葉', 'リード 段落'];
    for (const q of queries) {
      for (const type of ['all', 'posts', 'audios'] as const) {
        const results = await search({ q, type });
        const closed = results.hits.filter((h) => h.membersOnly);
        // The members' items may be found…
        if (q === SECRET_WORD && type === 'all') {
          expect(closed.map((h) => h.id).sort()).toEqual([
            'secret-audio',
            'secret-blocks',
            'secret-divider',
          ]);
        }
        // …but what their snippets show comes from the title, description and lead only.
        for (const hit of closed) {
          const shown = segmentsText(hit.snippet);
          expect(shown, `${q} ${hit.id}`).not.toContain(SECRET_WORD);
          expect(shown, `${q} ${hit.id}`).not.toContain('合言葉');
          expect(shown, `${q} ${hit.id}`).not.toContain('結末には');
          expect(shown).not.toContain('設計者が手放した');
        }
      }
    }
    const byWord = await search({ q: SECRET_WORD });
    const divider = byWord.hits.find((h) => h.id === 'secret-divider')!;
    expect(segmentsText(divider.snippet)).toBe(
      '続きは会員の方だけがお読みいただけます。 リードの一段落目。 リードの二段落目。',
    );
    expect(segmentsText(byWord.hits.find((h) => h.id === 'secret-blocks')!.snippet)).toBe(
      '一つ目の段落。 二つ目の段落。',
    );
    // The public-preview control shows the same sentence, highlighted.
    const open = byWord.hits.find((h) => h.id === 'secret-open')!;
    expect(segmentsText(open.snippet)).toContain(SECRET);
    expect(marks(open)).toEqual([SECRET_WORD]);
    // Nothing of the sentence in any snippet of any search but the public post's.
    const everything = await search({ q: SECRET });
    expect(everything.hits.map((h) => h.id).sort()).toEqual([
      'secret-audio',
      'secret-blocks',
      'secret-divider',
      'secret-open',
    ]);
    expect(
      allSnippets({ ...everything, hits: everything.hits.filter((h) => h.id !== 'secret-open') }),
    ).not.toContain(SECRET_WORD);
  });

  it('quotes the lead of a members’ post, highlighted, when the word is there', async () => {
    const results = await search({ q: 'リード', type: 'posts' });
    expect(results.hits.map((h) => h.id)).toEqual(['secret-divider']);
    expect(marks(results.hits[0]!)).toEqual(['リード', 'リード']);
  });

  it('answers an unknown word, an empty query and odd input without failing', async () => {
    const none = await search({ q: 'ぜったいにない言葉' });
    expect(none.hits).toEqual([]);
    expect(none.counts.all).toBe(0);
    expect(none.totalPages).toBe(1);
    const blank = await search({ q: '' });
    expect(blank).toMatchObject({ q: '', hits: [], counts: { all: 0 } });
    for (const q of ["'; DROP TABLE cms_contents; --", '%', '_', '\\', '[equals]', '🎨', 'a'])
      await expect(search({ q }), q).resolves.toBeTruthy();
    const parsed = parseSearchRequest({ q: `漆器\u0000${'あ'.repeat(200)}`, type: 'x', page: '0' });
    expect(parsed.type).toBe('all');
    expect(parsed.page).toBe(1);
    await expect(search(parsed)).resolves.toMatchObject({ hits: [] });
  });

  it('finds a feature issue by its name, linking to its page', async () => {
    const results = await search({ q: 'タイポグラフィ' });
    const feature = results.hits.find((h) => h.type === 'feature');
    expect(feature).toMatchObject({ id: 'cat-b', href: '/feature/cat-b', membersOnly: false });
    expect(segmentsText(feature!.title)).toBe('特集 No.4「タイポグラフィ」');
    expect(results.counts.feature).toBe(1);
    const only = await search({ q: 'タイポグラフィ', type: 'feature' });
    expect(only.hits.map((h) => h.id)).toEqual(['cat-b']);
  });

  it('suggests categories and tags', async () => {
    const suggestions = await searchSuggestions(site.client);
    expect(suggestions.categories).toEqual([
      { id: 'cat-b', name: 'タイポグラフィ', href: '/feature/cat-b' },
      { id: 'cat-a', name: '建築の現在', href: '/feature/cat-a' },
    ]);
    expect(suggestions.tags).toEqual([{ id: 'tag-a', name: '素材', href: '/posts?tag=tag-a' }]);
  });

  it('asks the service only for the fields it shows, and bodies only for the page shown', async () => {
    const calls: { endpoint: string; fields: string; limit?: number }[] = [];
    const client: Pick<typeof site.client, 'get'> = {
      get: (request) => {
        const fields = request.queries?.fields;
        calls.push({
          endpoint: request.endpoint,
          fields: Array.isArray(fields) ? fields.join(',') : (fields ?? ''),
          limit: request.queries?.limit,
        });
        return site.client.get(request);
      },
    };
    await searchSite(client, { q: '余白', type: 'all', page: 2 });
    expect(calls.every((c) => c.fields !== '')).toBe(true);
    const withBodies = calls.filter((c) => /body|transcript/.test(c.fields));
    expect(withBodies.reduce((sum, c) => sum + (c.limit ?? 0), 0)).toBeLessThanOrEqual(
      SEARCH_PAGE_SIZE,
    );
    calls.length = 0;
    await searchSite(client, { q: '余白', type: 'posts', page: 1 });
    expect(calls.filter((c) => c.limit !== 0)).toEqual([
      {
        endpoint: 'posts',
        fields: 'id,createdAt,publishedAt,title,description,body,isPublicPreview',
        limit: SEARCH_PAGE_SIZE,
      },
    ]);
    expect(
      calls
        .filter((c) => c.limit === 0)
        .map((c) => c.endpoint)
        .sort(),
    ).toEqual(['audios', 'categories', 'jobs', 'movies']);
  });
});
