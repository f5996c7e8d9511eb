import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Viewer } from '@/lib/access/post-access';
import { findEndpoint } from '@/lib/cms/model';
import { reindexDone, reindexStaleRows } from '@/server/services/cms/search-index';
import { seedDemoContent } from '@/server/features/seed/seed';
import { type ApiCall, apiClient } from '@test-support/content-api-client';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import type { Database } from '@/server/platform/db/client';
import { cmsContents } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { type SearchHit, type SearchResults, searchSite } from './site-search';
import { htmlToText } from '@/server/services/cms/search/tokenize';
import { createContent } from '@/server/services/cms/writes';

process.env.CMS_RATE_LIMIT_READ = '1000000';

const ANONYMOUS: Viewer = { kind: 'anonymous' };
const PAID: Viewer = { kind: 'member', paid: true };

type Item = { id: string; [field: string]: unknown };
type List = { contents: Item[]; totalCount: number };

/** The marked parts of a hit, title and snippet. */
const marks = (hit: SearchHit) =>
  [...hit.title, ...hit.snippet].filter((s) => s.match).map((s) => s.text);

describe('Japanese search over the demo corpus: kana, width and long vowel marks', () => {
  let database: Database;
  let api: ApiCall;
  let site: SiteContent;
  /** Every item of an endpoint with its text as written (title, description, body…). */
  let written: Record<string, { id: string; text: string }[]>;

  const ids = async (endpoint: string, q: string) => {
    const res = await api('GET', `${endpoint}?q=${encodeURIComponent(q)}&fields=id&limit=100`);
    expect(res.status, `${endpoint} ${q}`).toBe(200);
    return (res.body as List).contents.map((item) => item.id).sort();
  };
  /** The oracle: items whose text as written contains one of the spellings, by plain includes. */
  const containing = (endpoint: string, ...spellings: string[]) =>
    written[endpoint]!.filter((item) => spellings.some((s) => item.text.includes(s)))
      .map((item) => item.id)
      .sort();
  // A day when every demo job listing is open (they close in 2027): the oracle counts them all.
  const search = (q: string, viewer: Viewer = ANONYMOUS): Promise<SearchResults> =>
    searchSite({ client: site.client, db: database.db }, { q, type: 'all', page: 1 }, viewer, {
      now: new Date('2026-11-24T03:00:00Z'),
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    await seedDemoContent(database.db);
    api = (await apiClient(database.db, ['GET'])).call;
    site = createSiteContent({ db: database.db });
    written = {};
    for (const endpoint of ['posts', 'jobs']) {
      const res = await api('GET', `${endpoint}?limit=1000`);
      written[endpoint] = (res.body as List).contents.map((item) => ({
        id: item.id,
        text: Object.values(item)
          .filter((value): value is string => typeof value === 'string')
          .map(htmlToText)
          .join(' '),
      }));
    }
  }, 180_000);

  afterAll(async () => {
    site.dispose();
    await database.close();
  });

  it('the corpus has the words these tests look for, in katakana only', () => {
    expect(containing('posts', 'タイポグラフィ').length).toBeGreaterThan(1);
    expect(containing('posts', 'デザイナー').length).toBeGreaterThan(1);
    expect(containing('jobs', 'デザイナー').length).toBeGreaterThan(0);
    // So a hiragana query can only find them through folding.
    expect(containing('posts', 'たいぽぐらふぃ', 'ﾀｲﾎﾟｸﾞﾗﾌｨ', 'でざいなー')).toEqual([]);
  });

  it('finds タイポグラフィ by hiragana, half-width and a final ー, over the content API', async () => {
    const expected = containing('posts', 'タイポグラフィ');
    expect(await ids('posts', 'タイポグラフィ')).toEqual(expected);
    for (const q of ['たいぽぐらふぃ', 'たいぽぐらふぃー', 'ﾀｲﾎﾟｸﾞﾗﾌｨ', 'タイポグラフィ－'])
      expect(await ids('posts', q), q).toEqual(expected);
  });

  it('finds デザイナー with or without its ー, in any width or script', async () => {
    for (const endpoint of ['posts', 'jobs']) {
      // Every デザイナー, デザイナーズ…: デザイナ is where the spellings agree.
      const expected = containing(endpoint, 'デザイナ');
      expect(expected.length).toBeGreaterThan(0);
      for (const q of [
        'デザイナー',
        'デザイナ',
        'ﾃﾞｻﾞｲﾅｰ',
        'でざいなー',
        'デザイナｰ',
        'デザイナ～',
      ])
        expect(await ids(endpoint, q), `${endpoint} ${q}`).toEqual(expected);
    }
  });

  it('keeps letters apart that differ: ほ, ぼ and ぽ, ー inside a word', async () => {
    expect(await ids('posts', 'たいほぐらふぃ')).toEqual([]);
    expect(await ids('posts', 'たいぼぐらふぃ')).toEqual([]);
    expect(await ids('posts', 'ﾀｲﾎｸﾞﾗﾌｨ')).toEqual([]);
    // A short word typed with its ー keeps it: カラ would also find every から.
    expect(containing('posts', 'から').length).toBeGreaterThan(10);
    expect(await ids('posts', 'カラー')).toEqual(containing('posts', 'カラー'));
    expect(await ids('posts', 'からー')).toEqual(containing('posts', 'カラー'));
    // Inside a word ー is a letter: テーブル is not テブル.
    expect(containing('posts', 'テーブル').length).toBeGreaterThan(0);
    expect(await ids('posts', 'テブル')).toEqual([]);
    expect(await ids('posts', 'てーぶる')).toEqual(containing('posts', 'テーブル'));
  });

  it('never answers 500 to odd input in q', async () => {
    for (const q of [
      'ー',
      'ーーー',
      '〜',
      'カ-',
      '\u3099',
      'か\u3099',
      'ﾞﾟ',
      'e\u0301\u0301\u0301',
      '(カラー',
      '***:カラー',
      '[ァ-ン]ー',
      '\\ー',
      'ア'.repeat(100),
      'バー'.repeat(50),
      '🎨ー',
    ]) {
      const res = await api('GET', `posts?q=${encodeURIComponent(q)}&fields=id&limit=1`);
      expect(res.status, q).toBe(200);
    }
  });

  it('site search: a hiragana query marks タイポグラフィ as written', async () => {
    const results = await search('たいぽぐらふぃ');
    expect(results.counts.all).toBeGreaterThan(0);
    expect(results.hits.length).toBeGreaterThan(0);
    for (const hit of results.hits) {
      const shown = marks(hit);
      expect(shown.length, hit.id).toBeGreaterThan(0);
      for (const mark of shown) expect(mark, hit.id).toBe('タイポグラフィ');
    }
    // The same results as the word written in katakana.
    const katakana = await search('タイポグラフィ');
    expect(results.hits.map((h) => h.id)).toEqual(katakana.hits.map((h) => h.id));
    expect(results.counts).toEqual(katakana.counts);
  });

  it('site search: ﾃﾞｻﾞｲﾅｰ finds デザイナー and marks the whole word with its ー', async () => {
    const results = await search('ﾃﾞｻﾞｲﾅｰ', PAID);
    const katakana = await search('デザイナー', PAID);
    expect(results.counts).toEqual(katakana.counts);
    expect(results.counts.posts).toBe(containing('posts', 'デザイナ').length);
    expect(results.counts.jobs).toBe(containing('jobs', 'デザイナ').length);
    const all = results.hits.flatMap(marks);
    expect(all).toContain('デザイナー');
    for (const mark of all) expect(mark).toMatch(/^デザイナー?$/);
  });
});

describe('rows indexed before the folding', () => {
  let database: Database;
  afterAll(async () => {
    await database.close();
  });

  it('are reindexed in the background by the first search, over the API too', async () => {
    database = await createTestDatabase();
    const db = database.db;
    const title = 'ひらがなで書いた、たいぽぐらふぃの話';
    await createContent(db, findEndpoint('posts')!, {
      id: 'hiragana-only',
      status: 'publish',
      body: { title, isPublicPreview: true },
    });
    // As the previous rules indexed it: hiragana kept, under another version.
    await db
      .update(cmsContents)
      .set({
        searchText: title,
        searchTokens: sql`'{}'::text[]`,
        openText: title,
        openTokens: sql`'{}'::text[]`,
        searchVersion: 'before-kana-folding',
      })
      .where(eq(cmsContents.id, 'hiragana-only'));
    const { call } = await apiClient(db, ['GET']);
    const find = async (q: string) =>
      ((await call('GET', `posts?q=${encodeURIComponent(q)}&fields=id`)).body as List).contents.map(
        (item) => item.id,
      );
    // The first search starts the reindex (its own answer may or may not see the row yet).
    await find('タイポグラフィ');
    await expect(reindexDone(db)).resolves.toBe(1);
    expect(await reindexStaleRows(db)).toBe(0);
    expect(await find('タイポグラフィ')).toEqual(['hiragana-only']);
    const site = createSiteContent({ db });
    try {
      const results = await searchSite(
        { client: site.client, db },
        { q: 'タイポグラフィ', type: 'all', page: 1 },
        ANONYMOUS,
      );
      expect(results.hits.map((h) => h.id)).toEqual(['hiragana-only']);
      expect(marks(results.hits[0]!)).toEqual(['たいぽぐらふぃ']);
    } finally {
      site.dispose();
    }
  });
});
