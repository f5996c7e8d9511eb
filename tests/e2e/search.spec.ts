import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { admin } from './support/admin';

// /search over the demo corpus. The words are from the demo article bodies
// (assets/demo/content/article-prose.json): グリッドシステム and 動線 occur in the bodies of a few
// public-preview posts and of some members' posts, and never in a title beyond one; each finds
// fewer than 10 items, so every match is on the first page.
const KATAKANA = 'グリッドシステム';
const KANJI = '動線';
// Public-preview posts of the demo corpus that carry those words in their bodies.
const KATAKANA_POST = 'post-002';
const KANJI_POST = 'post-008';

async function readPost(
  request: APIRequestContext,
  id: string,
): Promise<{ title: string; body: string; isPublicPreview: boolean }> {
  const key = (await admin('create-api-key', '--name', 'e2e search', '--permissions', 'GET')).at(
    -1,
  )!;
  const response = await request.get(`/api/v1/posts/${id}?fields=title,body,isPublicPreview`, {
    headers: { 'X-MICROCMS-API-KEY': key },
  });
  expect(response.status()).toBe(200);
  return (await response.json()) as { title: string; body: string; isPublicPreview: boolean };
}

/** The result article whose title links to the post. */
function result(page: Page, title: string) {
  return page
    .getByRole('main')
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { level: 2, name: title, exact: true }) });
}

const searchUrl = (q: string) => new RegExp(`/search\\?q=${encodeURIComponent(q)}(&|$)`);

test('the header leads to /search; a katakana word from a post body is found and highlighted', async ({
  page,
  request,
}) => {
  const post = await readPost(request, KATAKANA_POST);
  expect(post.isPublicPreview).toBe(true);
  expect(post.body).toContain(KATAKANA);

  await page.goto('/');
  await page.getByRole('banner').getByRole('link', { name: '検索', exact: true }).click();
  await expect(page).toHaveURL(/\/search$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('検索');
  await expect(page).toHaveTitle('検索 | AXIS Membership');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  // Before a search: an introduction and places to start from.
  await expect(page.getByRole('heading', { name: '特集から探す' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'タグから探す' })).toBeVisible();

  const search = page.getByRole('search');
  await search.getByLabel('キーワード').fill(KATAKANA);
  await search.getByRole('button', { name: '検索' }).click();

  await expect(page).toHaveURL(searchUrl(KATAKANA));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`「${KATAKANA}」の検索結果`);
  await expect(page).toHaveTitle(`「${KATAKANA}」の検索結果 | AXIS Membership`);
  const hit = result(page, post.title);
  await expect(hit).toBeVisible();
  await expect(hit.getByRole('link', { name: post.title })).toHaveAttribute(
    'href',
    `/posts/${KATAKANA_POST}`,
  );
  await expect(hit.locator('mark', { hasText: KATAKANA }).first()).toBeVisible();
  await expect(hit.getByText('記事', { exact: true })).toBeVisible();

  // The type filter shows counts and the current choice.
  const types = page.getByRole('navigation', { name: '種類で絞り込む' });
  await expect(types.getByRole('link', { name: /^すべて/ })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(types.getByRole('link', { name: /^記事 \d+件$/ })).toBeVisible();
  await types.getByRole('link', { name: /^記事/ }).click();
  await expect(page).toHaveURL(/[?&]type=posts(&|$)/);
  await expect(types.getByRole('link', { name: /^記事/ })).toHaveAttribute('aria-current', 'page');
  await expect(result(page, post.title)).toBeVisible();

  // The URL is the search: opened afresh, it shows the same results.
  await page.goto(`/search?q=${encodeURIComponent(KATAKANA)}`);
  await expect(
    result(page, post.title).locator('mark', { hasText: KATAKANA }).first(),
  ).toBeVisible();

  await expectNoAxeViolations(page);
});

test('a two-character word from a post body is found, from a half-width query too', async ({
  page,
  request,
}) => {
  const post = await readPost(request, KANJI_POST);
  expect(post.body).toContain(KANJI);
  await page.goto(`/search?q=${encodeURIComponent(KANJI)}`);
  await expect(result(page, post.title).locator('mark', { hasText: KANJI }).first()).toBeVisible();
  // Every highlight is the word searched for.
  const marks = await page.getByRole('main').locator('article mark').allTextContents();
  expect(marks.length).toBeGreaterThan(0);
  expect(new Set(marks)).toEqual(new Set([KANJI]));

  await page.goto(`/search?q=${encodeURIComponent('ｸﾞﾘｯﾄﾞｼｽﾃﾑ')}`);
  await expect(
    page.getByRole('main').locator('article mark', { hasText: KATAKANA }).first(),
  ).toBeVisible();
});

test('an unknown word shows the empty message with suggestions; bad parameters never fail', async ({
  page,
}) => {
  const response = await page.goto(`/search?q=${encodeURIComponent('ぬばたまのくろかみやま')}`);
  expect(response?.status()).toBe(200);
  await expect(
    page.getByText('「ぬばたまのくろかみやま」に一致するコンテンツは見つかりませんでした。'),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: '検索のヒント' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '特集から探す' })).toBeVisible();
  await expect(page.getByRole('main').getByRole('article')).toHaveCount(0);

  for (const path of [
    '/search?q=%00',
    `/search?q=${'あ'.repeat(300)}`,
    '/search?q=a&q=b&type=connect&page=abc',
    `/search?q=${encodeURIComponent(KANJI)}&page=9999`,
    '/search?type=posts&page=-1',
  ]) {
    expect((await page.goto(path))?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }), path).toBeVisible();
  }
});

test('paging is reachable and marks the current page', async ({ page }) => {
  // 余白 is in the open text (title, description, lead) of more than 10 items of the demo corpus.
  await page.goto(`/search?q=${encodeURIComponent('余白')}`);
  const pager = page.getByRole('navigation', { name: 'ページ送り' });
  await expect(pager.getByRole('link', { name: '1 ページ目' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByRole('main').getByRole('article')).toHaveCount(10);
  await pager.getByRole('link', { name: '2 ページ目' }).click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  await expect(pager.getByRole('link', { name: '2 ページ目' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByText(/件中 11〜/)).toBeVisible();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the form, the results, the type filter and paging all work', async ({ page, request }) => {
    const post = await readPost(request, KANJI_POST);
    await page.goto('/search');
    await page.getByRole('search').getByLabel('キーワード').fill(KANJI);
    await page.getByRole('search').getByRole('button', { name: '検索' }).click();
    await expect(page).toHaveURL(searchUrl(KANJI));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`「${KANJI}」の検索結果`);
    await expect(
      result(page, post.title).locator('mark', { hasText: KANJI }).first(),
    ).toBeVisible();

    await page
      .getByRole('navigation', { name: '種類で絞り込む' })
      .getByRole('link', { name: /^求人/ })
      .click();
    await expect(page).toHaveURL(/[?&]type=jobs(&|$)/);
    await expect(page.getByRole('search').getByLabel('キーワード')).toHaveValue(KANJI);

    await page.goto(`/search?q=${encodeURIComponent('余白')}`);
    await page
      .getByRole('navigation', { name: 'ページ送り' })
      .getByRole('link', { name: '2 ページ目' })
      .click();
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    await expect(page.getByRole('main').getByRole('article').first()).toBeVisible();
  });
});
