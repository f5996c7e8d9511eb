import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';

// Japanese search folds kana, width and long vowel marks (src/lib/japanese-text.ts): the demo
// corpus writes タイポグラフィ and デザイナー in katakana only (a feature issue is named
// タイポグラフィ, and several posts and jobs mention both), so a hiragana or half-width query
// finds them only through the folding, and the page marks the text as written.
const WORD = 'タイポグラフィ';

type Item = { id: string; title?: string; description?: string; body?: string };
type List = { contents: Item[]; totalCount: number };

let headers: Record<string, string>;

test.beforeAll(async () => {
  const key = (await admin('create-api-key', '--name', 'e2e kana', '--permissions', 'GET')).at(-1)!;
  headers = { 'X-MICROCMS-API-KEY': key };
});

async function findPosts(request: APIRequestContext, q: string): Promise<List> {
  const response = await request.get(
    `/api/v1/posts?q=${encodeURIComponent(q)}&fields=id,title,description,body&limit=100`,
    { headers },
  );
  expect(response.status(), q).toBe(200);
  return (await response.json()) as List;
}

const idsOf = (list: List) => list.contents.map((item) => item.id).sort();

/** The marked parts of the results shown. */
const marksOn = (page: Page) => page.getByRole('main').locator('article mark').allTextContents();

/** Where the results shown lead, in order. */
const resultLinks = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('article')
    .getByRole('heading', { level: 2 })
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));

test('the content API finds タイポグラフィ by hiragana and half-width queries', async ({
  request,
}) => {
  const katakana = await findPosts(request, WORD);
  expect(katakana.totalCount).toBeGreaterThan(0);
  for (const item of katakana.contents) {
    const text = [item.title, item.description, item.body].join(' ');
    expect(text, item.id).toContain(WORD);
  }
  for (const q of ['たいぽぐらふぃ', 'たいぽぐらふぃー', 'ﾀｲﾎﾟｸﾞﾗﾌｨ']) {
    const found = await findPosts(request, q);
    expect(found.totalCount, q).toBe(katakana.totalCount);
    expect(idsOf(found), q).toEqual(idsOf(katakana));
  }
  // デザイナー with or without its ー, in half-width katakana too.
  const designer = idsOf(await findPosts(request, 'デザイナー'));
  expect(designer.length).toBeGreaterThan(0);
  for (const q of ['デザイナ', 'ﾃﾞｻﾞｲﾅｰ', 'でざいなー'])
    expect(idsOf(await findPosts(request, q)), q).toEqual(designer);
});

test('/search?q=たいぽぐらふぃ shows the タイポグラフィ results with the word marked as written', async ({
  page,
}) => {
  await page.goto(`/search?q=${encodeURIComponent(WORD)}`);
  await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  const katakanaResults = await resultLinks(page);

  await page.goto(`/search?q=${encodeURIComponent('たいぽぐらふぃ')}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('「たいぽぐらふぃ」の検索結果');
  await expect(page.getByRole('search').getByLabel('キーワード')).toHaveValue('たいぽぐらふぃ');
  // The feature issue named タイポグラフィ is among them, its name marked.
  const feature = page
    .getByRole('main')
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { level: 2, name: /「タイポグラフィ」/ }) });
  await expect(feature.locator('mark', { hasText: WORD }).first()).toBeVisible();
  // Every mark is the katakana of the page, never the hiragana of the query.
  const marks = await marksOn(page);
  expect(marks.length).toBeGreaterThan(0);
  expect(new Set(marks)).toEqual(new Set([WORD]));
  // The same results as the katakana query.
  expect(await resultLinks(page)).toEqual(katakanaResults);
});

test('a half-width katakana query finds and marks the full-width words', async ({ page }) => {
  await page.goto(`/search?q=${encodeURIComponent('ﾀｲﾎﾟｸﾞﾗﾌｨ')}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('「ﾀｲﾎﾟｸﾞﾗﾌｨ」の検索結果');
  await expect(
    page.getByRole('main').locator('article mark', { hasText: WORD }).first(),
  ).toBeVisible();
  expect(new Set(await marksOn(page))).toEqual(new Set([WORD]));

  // デザイナー is marked whole, with its ー, from a half-width query that spells it.
  await page.goto(`/search?q=${encodeURIComponent('ﾃﾞｻﾞｲﾅｰ')}`);
  await expect(
    page.getByRole('main').locator('article mark', { hasText: 'デザイナー' }).first(),
  ).toBeVisible();
  for (const mark of await marksOn(page)) expect(mark).toMatch(/^デザイナー?$/);
});
