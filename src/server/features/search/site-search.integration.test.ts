import { type SQL, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import type { Viewer } from '@/lib/access/post-access';
import { findEndpoint } from '@/lib/cms/model';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import {
  type SearchScope,
  readingPairsOf,
  reindexDone,
  reindexStaleRows,
  searchCondition,
  wholeWordConditions,
} from '@/server/services/cms/search-index';
import { apiClient } from '@test-support/content-api-client';
import { getFreePlanPostIds } from '@/server/features/content/client';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import { cmsContents } from '@/server/platform/db/schema';
import { SEARCH_PAGE_SIZE, type SearchRequest, parseSearchRequest } from './search-request';
import { type SearchHit, type SearchResults, searchSite, searchSuggestions } from './site-search';
import type { SearchSource } from './search-listers';
import { segmentsText } from './snippet';
import { createContent } from '@/server/services/cms/writes';

const def = (endpoint: string) => findEndpoint(endpoint)!;
const day = (n: number) => new Date(Date.UTC(2026, 0, 1) + n * 86_400_000).toISOString();
const p = (text: string) => `<p>${text}</p>`;

// Planted after the lead of members' items: only a viewer who may read it finds the item by it
// (a search is otherwise an oracle: "does the paid body contain this?"), and no snippet shows it
// to anyone else.
const SECRET = '会員だけが読める結末には合言葉ホウセンカが隠されている。';
const SECRET_WORD = 'ホウセンカ';
/** A part of the secret that occurs in no other text of the test. */
const SECRET_TAIL = '葉ホウセンカが隠され';
// The same in a post of the free plan (the 3 newest members' posts): free members read it.
const FREE_SECRET = '無料枠の記事の結末には合言葉ヤマボウシが眠っている。';
const FREE_WORD = 'ヤマボウシ';
const FREE_PLAN = ['free-plan-secret', 'free-plan-b', 'free-plan-c'];

const ANONYMOUS: Viewer = { kind: 'anonymous' };
const FREE: Viewer = { kind: 'member', paid: false };
const PAID: Viewer = { kind: 'member', paid: true };
const STAFF: Viewer = { kind: 'staff' };
const VIEWERS = { anonymous: ANONYMOUS, free: FREE, paid: PAID, staff: STAFF } as const;

const filler = (n: number) =>
  p(
    `設計者が手放したあとに積み重なる小さな変化を受け止められるかどうかが、建築の懐の深さを決めている。(${n})`,
  );
const fillers = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => filler(from + i)).join('');
/** Where an editor ends the lead of a members' item. */
const DIVIDER = MEMBERS_DIVIDER.html;

describe('site search on the built-in content service', () => {
  const database = testDatabase({ global: false });
  let site: SiteContent;
  /** In process on the built-in service's index, as the site runs by default. */
  let builtIn: SearchSource;
  /** Through the API only, as with a hosted microCMS: hits are checked per viewer. */
  let hosted: SearchSource;
  const search = (
    request: Partial<SearchRequest>,
    viewer: Viewer = ANONYMOUS,
    source: SearchSource = builtIn,
  ): Promise<SearchResults> =>
    searchSite(source, { q: '', type: 'all', page: 1, ...request }, viewer);
  const ids = (results: SearchResults) => results.hits.map((hit) => hit.id).sort();
  const allSnippets = (results: SearchResults) =>
    results.hits.map((hit) => segmentsText(hit.snippet)).join('\n');
  const marks = (hit: SearchHit) => [
    ...hit.title.filter((s) => s.match).map((s) => s.text),
    ...hit.snippet.filter((s) => s.match).map((s) => s.text),
  ];

  beforeAll(async () => {
    site = createSiteContent({ db: database.db });
    builtIn = { client: site.client, db: database.db };
    hosted = { client: site.client };
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
      body:
        p('冒頭の段落。') +
        filler(1) +
        p('この町の漆器は、分業によって支えられてきた。') +
        p('漆を塗り重ねた椀を紙に包む。'),
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
      body: p('リードの一段落目。') + p('リードの二段落目。') + DIVIDER + p(SECRET) + filler(2),
      isPublicPreview: false,
      publishedAt: day(300),
    });
    await create('posts', 'secret-blocks', {
      title: '区切りのない記事',
      // Without a divider the lead is the first 300 characters: the secret comes after them.
      body: p('一つ目の段落。') + p('二つ目の段落。') + fillers(3, 8) + p(SECRET) + fillers(9, 14),
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
      transcript: p('書き起こしの冒頭。') + p('二段落目。') + DIVIDER + p(SECRET),
      isPublicPreview: false,
      publishedAt: day(303),
    });

    // Connect is members-only: never searched.
    await create('connect', 'yohaku-connect', {
      title: '余白のある暮らし',
      body: p(`コミュニティの記事。${SECRET}`),
    });

    // The free plan: made the newest members' posts below.
    await create('posts', 'free-plan-secret', {
      title: '無料枠の記事',
      description: '無料会員も全文を読める記事。',
      body: p('無料枠の冒頭の一文。') + p('無料枠の冒頭の二文目。') + DIVIDER + p(FREE_SECRET),
      isPublicPreview: false,
      publishedAt: day(310),
    });
    await create('posts', 'free-plan-b', { title: '無料枠の二本目', publishedAt: day(311) });
    await create('posts', 'free-plan-c', { title: '無料枠の三本目', publishedAt: day(312) });
    await database.db
      .update(cmsContents)
      .set({ createdAt: new Date(Date.UTC(2030, 0, 1)) })
      .where(inArray(cmsContents.id, FREE_PLAN));

    await create('categories', 'cat-a', { name: '建築の現在', issueNumber: 3 });
    await create('categories', 'cat-b', { name: 'タイポグラフィ', issueNumber: 4 });
    await create('tags', 'tag-a', { name: '素材' });
  }, 120_000);

  afterAll(() => {
    site.dispose();
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
    expect(posts.hits.map((h) => h.access)).toEqual(['paid', 'open', 'paid']);

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

  it('the free plan of the test is the 3 posts made newest', async () => {
    expect((await getFreePlanPostIds(site.client)).sort()).toEqual([...FREE_PLAN].sort());
  });

  it('finds a members’ item by its closed part only for a viewer who may read it (no oracle)', async () => {
    for (const source of [builtIn, hosted]) {
      const where = source === builtIn ? 'built-in' : 'hosted';
      // Every substring of the closed sentence, as an attacker extends a guess: anonymous and
      // free readers find only the public-preview control, whose whole text they may read.
      const chars = Array.from(SECRET_TAIL);
      for (let i = 0; i + 3 <= chars.length; i++) {
        const q = chars.slice(i, i + 3).join('');
        for (const viewer of [ANONYMOUS, FREE]) {
          const found = await search({ q }, viewer, source);
          expect(ids(found), `${where} ${viewer.kind} ${q}`).toEqual(['secret-open']);
          expect(found.counts, `${where} ${q}`).toMatchObject({ all: 1, posts: 1, audios: 0 });
        }
      }
      for (const [name, viewer] of Object.entries(VIEWERS)) {
        const full = name === 'paid' || name === 'staff';
        for (const type of ['all', 'posts', 'audios'] as const) {
          const found = await search({ q: SECRET_WORD, type }, viewer, source);
          const expected = {
            all: full
              ? ['secret-audio', 'secret-blocks', 'secret-divider', 'secret-open']
              : ['secret-open'],
            posts: full ? ['secret-blocks', 'secret-divider', 'secret-open'] : ['secret-open'],
            audios: full ? ['secret-audio'] : [],
          }[type];
          expect(ids(found), `${where} ${name} ${type}`).toEqual(expected);
          expect(found.counts[type], `${where} ${name} ${type}`).toBe(expected.length);
          expect(found.atLeast).toEqual([]);
        }
        // Two terms, one from the lead and one from the closed part: all terms must be readable.
        const mixed = await search({ q: `リードの二段落目 ${SECRET_WORD}` }, viewer, source);
        expect(ids(mixed), `${where} ${name} mixed`).toEqual(full ? ['secret-divider'] : []);
      }
    }
  });

  it('finds a members’ item by its title, description and lead for every viewer', async () => {
    for (const source of [builtIn, hosted]) {
      for (const viewer of Object.values(VIEWERS)) {
        const by = async (q: string) => ids(await search({ q }, viewer, source));
        expect(await by('会員限定の結末')).toEqual(['secret-divider']); // title
        expect(await by('続きは会員の方だけ')).toEqual(['secret-divider']); // description
        expect(await by('リードの二段落目')).toEqual(['secret-divider']); // lead
        expect(await by('書き起こしの冒頭')).toEqual(['secret-audio']); // the transcript's lead
        expect(await by('無料枠の冒頭の二文目')).toEqual(['free-plan-secret']);
      }
    }
  });

  it('lets a free member find the closed part of the free-plan posts, and nobody else’s', async () => {
    for (const source of [builtIn, hosted]) {
      const where = source === builtIn ? 'built-in' : 'hosted';
      expect(ids(await search({ q: FREE_WORD }, ANONYMOUS, source)), where).toEqual([]);
      for (const viewer of [FREE, PAID, STAFF]) {
        const found = await search({ q: FREE_WORD }, viewer, source);
        expect(ids(found), `${where} ${viewer.kind}`).toEqual(['free-plan-secret']);
        // The snippet shows this reader where: they may read it.
        expect(segmentsText(found.hits[0]!.snippet)).toContain(FREE_SECRET);
      }
      // Not the closed part of a members' post outside the free plan.
      expect(ids(await search({ q: SECRET_WORD, type: 'posts' }, FREE, source))).toEqual([
        'secret-open',
      ]);
    }
  });

  it('never shows the closed part in a snippet to a viewer who may not read it', async () => {
    const queries = [SECRET_WORD, FREE_WORD, '合言葉', 'リード 段落', '会員', '段落', '二段落目'];
    const closedTo = new Map<Viewer, string[]>([
      [ANONYMOUS, ['secret-divider', 'secret-blocks', 'secret-audio', 'free-plan-secret']],
      [FREE, ['secret-divider', 'secret-blocks', 'secret-audio']],
    ]);
    for (const [viewer, closed] of closedTo) {
      for (const source of [builtIn, hosted]) {
        for (const q of queries) {
          for (const type of ['all', 'posts', 'audios'] as const) {
            const results = await search({ q, type }, viewer, source);
            for (const hit of results.hits.filter((h) => closed.includes(h.id))) {
              const shown = segmentsText(hit.snippet);
              for (const closedWord of [SECRET_WORD, FREE_WORD, '合言葉', '結末には'])
                expect(shown, `${viewer.kind} ${q} ${hit.id}`).not.toContain(closedWord);
            }
          }
        }
      }
    }
    const byLead = await search({ q: 'リード' });
    expect(segmentsText(byLead.hits.find((h) => h.id === 'secret-divider')!.snippet)).toBe(
      '続きは会員の方だけがお読みいただけます。 リードの一段落目。 リードの二段落目。',
    );
    const byParagraph = await search({ q: '二つ目の段落' }, FREE);
    const blocks = segmentsText(byParagraph.hits.find((h) => h.id === 'secret-blocks')!.snippet);
    expect(blocks).toMatch(/^一つ目の段落。 二つ目の段落。 設計者が/);
    // A paid reader's snippet quotes the closed sentence they found, highlighted.
    const paid = await search({ q: SECRET_WORD, type: 'posts' }, PAID);
    const divider = paid.hits.find((h) => h.id === 'secret-divider')!;
    expect(segmentsText(divider.snippet)).toContain(SECRET);
    expect(marks(divider)).toEqual([SECRET_WORD]);
    // The public-preview control shows the sentence to everyone, highlighted.
    const open = (await search({ q: SECRET_WORD })).hits.find((h) => h.id === 'secret-open')!;
    expect(segmentsText(open.snippet)).toContain(SECRET);
    expect(marks(open)).toEqual([SECRET_WORD]);
    // Nothing of the sentence in any anonymous snippet but the public post's.
    const everything = await search({ q: '段落' });
    expect(
      allSnippets({ ...everything, hits: everything.hits.filter((h) => h.id !== 'secret-open') }),
    ).not.toContain(SECRET_WORD);
  });

  it('counts the same on the built-in index and through the API, for every viewer', async () => {
    for (const viewer of Object.values(VIEWERS)) {
      for (const q of ['余白', '段落', SECRET_WORD, FREE_WORD, '無料枠', 'テキスタイル']) {
        const [a, b] = await Promise.all([
          search({ q }, viewer, builtIn),
          search({ q }, viewer, hosted),
        ]);
        expect(b.counts, `${viewer.kind} ${q}`).toEqual(a.counts);
        expect(b.hits.map((h) => h.id)).toEqual(a.hits.map((h) => h.id));
      }
    }
  });

  it('never matches open text indexed under other rules, and reindexes it', async () => {
    const db = database.db;
    // A scoped search started the background reindex of this database; it found nothing stale.
    await search({ q: 'リード' });
    await expect(reindexDone(db)).resolves.toBe(0);
    // A row from before the open text (the migration's default), and one whose open text was cut
    // by another lead and holds the closed sentence: neither is trusted.
    await db
      .update(cmsContents)
      .set({ openText: '', openTokens: [], searchVersion: '' })
      .where(eq(cmsContents.id, 'secret-divider'));
    await db
      .update(cmsContents)
      .set({
        openText: sql`search_text`,
        openTokens: sql`search_tokens`,
        searchVersion: 'an-older-lead',
      })
      .where(eq(cmsContents.id, 'secret-blocks'));
    const stale = await search({ q: SECRET_WORD, type: 'posts' });
    expect(ids(stale)).toEqual(['secret-open']);
    expect(ids(await search({ q: 'リードの二段落目' }))).toEqual([]);
    expect(ids(await search({ q: '二つ目の段落' }))).toEqual(['secret-open']);
    // …but a paid reader still finds them by the full text.
    expect(ids(await search({ q: 'リードの二段落目' }, PAID))).toEqual(['secret-divider']);

    expect(await reindexStaleRows(db)).toBe(2);
    expect(await reindexStaleRows(db)).toBe(0);
    expect(ids(await search({ q: 'リードの二段落目' }))).toEqual(['secret-divider']);
    expect(ids(await search({ q: SECRET_WORD, type: 'posts' }))).toEqual(['secret-open']);
    expect(ids(await search({ q: SECRET_WORD, type: 'posts' }, PAID))).toEqual([
      'secret-blocks',
      'secret-divider',
      'secret-open',
    ]);
  });

  it('finds kanji by their reading in kana, only where the viewer may read them', async () => {
    // 漆 and 紙 in the visible text of a public post.
    expect(ids(await search({ q: 'うるし' }))).toEqual(['lacquer']);
    expect(ids(await search({ q: 'かみ', type: 'posts' }))).toEqual(['lacquer']);
    expect(ids(await search({ q: 'ウルシ 紙' }))).toEqual(['lacquer']);
    // 合言葉 (あいことば) and 隠されている are behind the divider or past the lead of members'
    // items, 眠っている in the closed part of a free-plan post: their readings are as closed.
    for (const [name, viewer] of Object.entries(VIEWERS)) {
      const full = name === 'paid' || name === 'staff';
      const members = full ? ['secret-audio', 'secret-blocks', 'secret-divider'] : [];
      // The free plan's closed part has 合言葉 too; the public-preview control has both words.
      const freePlan = name === 'anonymous' ? [] : ['free-plan-secret'];
      expect(ids(await search({ q: 'あいことば' }, viewer)), name).toEqual(
        [...freePlan, ...members, 'secret-open'].sort(),
      );
      expect(ids(await search({ q: 'かくされて' }, viewer)), name).toEqual(
        [...members, 'secret-open'].sort(),
      );
    }
    for (const [viewer, found] of [
      [ANONYMOUS, []],
      [FREE, ['free-plan-secret']],
      [PAID, ['free-plan-secret']],
    ] as const) {
      const results = await search({ q: 'ねむって' }, viewer);
      expect(ids(results), viewer.kind).toEqual(found);
    }
    // How found kanji read is kept per text too: what marks a hit comes from the text the
    // viewer's scope matches, never from a closed part (合言葉 is behind the divider).
    const pairs = async (scope: SearchScope) =>
      (await readingPairsOf(database.db, 'posts', ['secret-divider'], scope)).get('secret-divider');
    expect(await pairs({ kind: 'open' })).toContainEqual(['一段落', 'イチダンラク']);
    expect(await pairs({ kind: 'open' })).not.toContainEqual(['合言葉', 'アイコトバ']);
    expect(await pairs({ kind: 'full' })).toContainEqual(['合言葉', 'アイコトバ']);
    expect(await pairs({ kind: 'open', fullIds: ['secret-divider'] })).toContainEqual([
      '合言葉',
      'アイコトバ',
    ]);
    // The reindex fills the readings of a row indexed before them.
    const db = database.db;
    await db
      .update(cmsContents)
      .set({ searchText: '', searchTokens: [], openText: '', openTokens: [], searchVersion: '' })
      .where(eq(cmsContents.id, 'lacquer'));
    expect(ids(await search({ q: 'うるし' }))).toEqual([]);
    expect(await reindexStaleRows(db)).toBe(1);
    expect(ids(await search({ q: 'うるし' }))).toEqual(['lacquer']);
  });

  it('ranks whole words above parts of words: かみ lists 紙 and 神 before 温かみ, each newest first', async () => {
    const create = (endpoint: string, id: string, body: Record<string, unknown>) =>
      createContent(database.db, def(endpoint), { id, body, status: 'publish' });
    // Eleven newer posts where かみ is only inside 温かみ, one post with the word 神 and a job
    // with 紙, besides the lacquer post's 紙 (day 200).
    const warm = Array.from({ length: 11 }, (_, i) => `warm-${String(i + 1).padStart(2, '0')}`);
    for (const [i, id] of warm.entries())
      await create('posts', id, {
        title: `木の温かみを生かした家具 その${i + 1}`,
        isPublicPreview: true,
        publishedAt: day(400 + i),
      });
    await create('posts', 'god-post', {
      title: '神の宿る道具',
      isPublicPreview: true,
      publishedAt: day(150),
    });
    await create('jobs', 'paper-job', {
      title: '紙の加工スタッフ募集',
      employmentType: ['正社員'],
      publishedAt: day(140),
    });
    const newestWarm = [...warm].reverse();

    const posts = [
      await search({ q: 'かみ', type: 'posts' }),
      await search({ q: 'かみ', type: 'posts', page: 2 }),
    ];
    expect(posts[0]!.counts.posts).toBe(13);
    expect(posts.flatMap((r) => r.hits.map((h) => h.id))).toEqual([
      'lacquer',
      'god-post',
      ...newestWarm,
    ]);
    const all = [await search({ q: 'かみ' }), await search({ q: 'かみ', page: 2 })];
    expect(all[0]!.counts.all).toBe(14);
    expect(all.flatMap((r) => r.hits.map((h) => h.id))).toEqual([
      'lacquer',
      'god-post',
      'paper-job',
      ...newestWarm,
    ]);
    // The kanji read かみ are marked, in the title and in the snippet; in 温かみ only its かみ.
    const [lacquer, god, job, warmest] = all[0]!.hits;
    expect(marks(lacquer!)).toEqual(['紙']);
    expect(segmentsText(lacquer!.snippet)).toContain('漆を塗り重ねた椀を紙に包む。');
    expect(marks(god!)).toEqual(['神']);
    expect(marks(job!)).toEqual(['紙']);
    expect(marks(warmest!)).toEqual(['かみ']);
    // うるし marks 漆, not 漆器 (read しっき).
    const lacquered = await search({ q: 'うるし' });
    expect(lacquered.hits.flatMap(marks)).toEqual(['漆']);
    // The store reads a few whole-word matches through the index and walks many: both find
    // the same rows.
    const whole = wholeWordConditions('かみ', { kind: 'open' })!;
    const found = async (condition: SQL) =>
      (
        await database.db
          .select({ id: cmsContents.id })
          .from(cmsContents)
          .where(sql`${searchCondition('かみ', { kind: 'open' })!} AND ${condition}`)
      )
        .map((row) => row.id)
        .sort();
    expect(await found(whole.lookup)).toEqual(['god-post', 'lacquer', 'paper-job']);
    expect(await found(whole.each)).toEqual(['god-post', 'lacquer', 'paper-job']);
    expect(await found(whole.others)).toEqual([...warm].sort());
  });

  it('leaves `q` over HTTP on whole items: it needs a key, and a key reads whole items anyway', async () => {
    const { call } = await apiClient(database.db, ['GET']);
    const path = `posts?q=${encodeURIComponent(SECRET_WORD)}&fields=id&limit=100`;
    expect((await call('GET', path, { key: null })).status).toBe(401);
    const found = await call('GET', path);
    expect(found.status).toBe(200);
    expect((found.body as { contents: { id: string }[] }).contents.map((c) => c.id).sort()).toEqual(
      ['secret-blocks', 'secret-divider', 'secret-open'],
    );
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
    expect(feature).toMatchObject({ id: 'cat-b', href: '/feature/cat-b', access: null });
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

  it('finds a job listing through its closing day in Japan and not after, on both paths', async () => {
    const word = 'シメキリビ';
    for (const [id, closing] of [
      ['closed-yesterday-job', '2026-11-23'],
      ['closing-today-job', '2026-11-24'],
    ] as const)
      await createContent(database.db, def('jobs'), {
        id,
        body: {
          title: `${word}の求人 ${id}`,
          closingDate: `${closing}T23:59:59+09:00`,
        },
        status: 'publish',
      });
    const at = (now: string, source: SearchSource, type: SearchRequest['type']) =>
      searchSite(source, { q: word, type, page: 1 }, ANONYMOUS, { now: new Date(now) });
    for (const source of [builtIn, hosted])
      for (const type of ['all', 'jobs'] as const) {
        // 2026-11-24 12:00 in Japan.
        const today = await at('2026-11-24T03:00:00Z', source, type);
        expect(ids(today)).toEqual(['closing-today-job']);
        expect(today.counts.jobs).toBe(1);
        // 2026-11-25 00:00:01 in Japan: both have closed.
        const tomorrow = await at('2026-11-24T15:00:01Z', source, type);
        expect(tomorrow.hits).toEqual([]);
        expect(tomorrow.counts.all).toBe(0);
      }
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
    // Through the API for a reader of everything: nothing needs checking.
    await searchSite({ client }, { q: '余白', type: 'all', page: 2 }, PAID);
    expect(calls.every((c) => c.fields !== '')).toBe(true);
    const withBodies = calls.filter((c) => /body|transcript/.test(c.fields));
    expect(withBodies.reduce((sum, c) => sum + (c.limit ?? 0), 0)).toBeLessThanOrEqual(
      SEARCH_PAGE_SIZE,
    );
    calls.length = 0;
    await searchSite({ client }, { q: '余白', type: 'posts', page: 1 }, PAID);
    expect(calls.filter((c) => c.limit !== 0)).toEqual([
      // The free-plan list (ids only): results say 会員限定 or 有料会員限定 by it.
      { endpoint: 'posts', fields: 'id', limit: 3 },
      {
        endpoint: 'posts',
        fields: 'id,createdAt,publishedAt,title,description,body,isPublicPreview,coverImage',
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
