import { type APIRequestContext, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { E2E_SITE_URL } from './support/settings';
import { admin } from './support/admin';
import { signInAs } from './support/roles';
import { openDocument } from './support/document';

// Every reading route of SPEC §2 with the demo corpus: it renders on the server with its
// title, passes axe, and gives each reader what the access policy allows.

async function firstId(
  request: APIRequestContext,
  endpoint: string,
  filters = '',
): Promise<string> {
  const key = (
    await admin('create-api-key', '--name', `e2e ${endpoint}`, '--permissions', 'GET')
  ).at(-1)!;
  const res = await request.get(
    `/api/v1/${endpoint}?limit=1&fields=id${filters ? `&filters=${encodeURIComponent(filters)}` : ''}`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  return ((await res.json()) as { contents: { id: string }[] }).contents[0]!.id;
}

test('every list route renders with its heading and title, and passes axe', async ({ page }) => {
  const routes: [string, string][] = [
    ['/posts', '記事'],
    ['/insight', 'インサイト'],
    ['/feature', '特集'],
    ['/series', '連載'],
    ['/movies', '動画'],
    ['/audios', '音声'],
    ['/connect', 'コネクト'],
    ['/jobs', '求人'],
  ];
  for (const [path, title] of routes) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(200);
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(title);
    await expect(page, path).toHaveTitle(`${title} | AXIS Membership`);
    await expect(page.locator('main article').first(), path).toBeVisible();
    await expectNoAxeViolations(page, path);
  }
});

test('the home page shows the latest posts, the feature issue and every area', async ({ page }) => {
  await page.goto('/');
  for (const heading of ['新着記事', '連載', '動画', '音声', 'インサイト', '新着の求人']) {
    await expect(page.getByRole('heading', { level: 2, name: heading, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('heading', { level: 2, name: /^特集/ })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('lists page, filter and never fail on a bad parameter', async ({ page }) => {
  await page.goto('/posts');
  await page
    .getByRole('navigation', { name: 'ページ送り' })
    .getByRole('link', { name: '2 ページ目' })
    .click();
  await expect(page).toHaveURL(/\/posts\?page=2$/);
  await expect(
    page.getByRole('navigation', { name: 'ページ送り' }).getByRole('link', { name: '2 ページ目' }),
  ).toHaveAttribute('aria-current', 'page');
  for (const path of [
    '/posts?page=abc',
    '/posts?category=%00',
    '/posts?tag=nope&page=999',
    '/movies?page=-1',
  ]) {
    expect((await openDocument(page, path)).status(), path).toBe(200);
  }
  for (const path of [
    '/feature/no-such',
    '/audios/no-such',
    '/movies/no-such',
    '/connect/no-such',
  ]) {
    expect((await openDocument(page, path)).status(), path).toBe(404);
  }
});

test('audio and movie files reach only paid readers, through signed URLs', async ({
  page,
  request,
}) => {
  const audio = await firstId(
    request,
    'audios',
    'isPublicPreview[not_equals]true[and]audioFile[exists]',
  );
  const movie = await firstId(
    request,
    'movies',
    'isPublicPreview[not_equals]true[and]videoFile[exists]',
  );

  const anonymous = await page.goto(`/audios/${audio}`);
  const html = await anonymous!.text();
  expect(html).not.toContain('/media/protected/');
  await expect(page.getByRole('heading', { name: 'この音声は有料会員限定です' })).toBeVisible();
  await page.goto(`/movies/${movie}`);
  await expect(page.locator('video')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'この動画は有料会員限定です' })).toBeVisible();

  await signInAs(page, 'paid');
  await page.goto(`/audios/${audio}`);
  const src = await page.locator('audio').getAttribute('src');
  expect(src).toMatch(/^\/media\/protected\/.+\?exp=\d+&sig=/);
  expect((await page.request.get(src!)).status()).toBe(200);
  expect((await page.request.get(src!.replace(/sig=[^&]+/, 'sig=forged'))).status()).toBe(403);
  await expect(page.getByRole('button', { name: '30秒進む' })).toBeVisible();
  await page.goto(`/movies/${movie}`);
  await expect(page.locator('video')).toHaveAttribute('src', /\?exp=\d+&sig=/);
});

test('connect pages are read in full by signed-in members only', async ({ page, request }) => {
  const id = await firstId(request, 'connect');
  await page.goto(`/connect/${id}`);
  await expect(page.getByRole('heading', { name: 'このページは会員限定です' })).toBeVisible();
  await signInAs(page, 'member');
  await page.goto(`/connect/${id}`);
  await expect(page.getByRole('heading', { name: 'このページは会員限定です' })).toHaveCount(0);
});

test('a post shows its series place, tags, share links and related posts', async ({
  page,
  request,
}) => {
  const id = await firstId(request, 'posts', 'series[exists]');
  await page.goto(`/posts/${id}`);
  await expect(page.getByText(/^連載「.+」第\d+回$/)).toBeVisible();
  await expect(
    page.getByRole('navigation', { name: 'この記事を共有する' }).getByRole('link', { name: /^X/ }),
  ).toHaveAttribute(
    'href',
    new RegExp(
      `^https://x\\.com/intent/post\\?text=.+&url=${encodeURIComponent(`${E2E_SITE_URL}/posts/${id}`)}`,
    ),
  );
  await expect(page.getByRole('heading', { level: 2, name: '関連記事' })).toBeVisible();
  // The title is broken only between phrases (BudouX).
  expect(await page.locator('h1 wbr').count()).toBeGreaterThan(0);
});

test('a client navigation shows a loading status until the next page is shown', async ({
  page,
}) => {
  await page.goto('/posts');
  // Slow the next page's data down, so the loading state can be seen.
  await page.route(/\/posts\?page=2/, async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  await page
    .getByRole('navigation', { name: 'ページ送り' })
    .getByRole('link', { name: '2 ページ目' })
    .click();
  await expect(page.getByRole('status').filter({ hasText: '読み込み中' })).toBeVisible();
  await expect(page).toHaveURL(/\/posts\?page=2$/);
  await expect(page.getByRole('status').filter({ hasText: '読み込み中' })).toHaveCount(0);
});
