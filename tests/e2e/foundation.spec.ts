import { expect, test, type Locator, type Page } from '@playwright/test';
import { expectScreensAccessible } from './support/axe';
import { E2E_SITE_URL } from './support/settings';

type DataLayerEvent = { event?: string; page_path?: string; page_title?: string };

async function pageViews(page: Page): Promise<DataLayerEvent[]> {
  return page.evaluate(() =>
    ((window as unknown as { dataLayer?: DataLayerEvent[] }).dataLayer ?? []).filter(
      (e) => e.event === 'page_view',
    ),
  );
}

test('the home page renders in Japanese with the site metadata', async ({ page }) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'デザインの「いま」を、深く読む。',
  );
  await expect(page).toHaveTitle('AXIS Membership');
  await expect(page.locator('meta[property="og:locale"]')).toHaveAttribute('content', 'ja_JP');
  await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute(
    'content',
    'summary_large_image',
  );
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', E2E_SITE_URL);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
    'content',
    /\/og-default\.png$/,
  );
  const nav = page.getByRole('navigation', { name: 'サイトマップ' });
  for (const label of [
    'このサイトについて',
    'よくある質問',
    'お問い合わせ',
    '利用規約',
    '特定商取引法に基づく表記',
    'スタジオ',
  ]) {
    await expect(nav.getByRole('link', { name: label })).toBeVisible();
  }
});

test('a page_view is pushed on the first load and after a client-side navigation', async ({
  page,
}) => {
  await page.goto('/');
  await expect
    .poll(() => pageViews(page))
    .toEqual([{ event: 'page_view', page_path: '/', page_title: 'AXIS Membership' }]);

  // From the 404 page back to the home page: a client-side navigation (the window survives).
  await page.goto('/no-such-page?from=test');
  await expect
    .poll(() => pageViews(page))
    .toEqual([
      {
        event: 'page_view',
        page_path: '/no-such-page?from=test',
        page_title: 'ページが見つかりません | AXIS Membership',
      },
    ]);
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
  await page.getByRole('link', { name: 'トップページへ戻る' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'デザインの「いま」を、深く読む。',
  );
  await expect
    .poll(async () => (await pageViews(page)).at(-1))
    .toEqual({
      event: 'page_view',
      page_path: '/',
      page_title: 'AXIS Membership',
    });
  expect(await pageViews(page)).toHaveLength(2);
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
});

test('each client-side navigation through links pushes exactly one page_view with its path', async ({
  page,
}) => {
  const site = 'AXIS Membership';
  await page.goto('/');
  await expect
    .poll(() => pageViews(page))
    .toEqual([{ event: 'page_view', page_path: '/', page_title: site }]);
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
  const paths = ['/'];

  /** Follows a link: the data layer then holds one more push, for this path and title. */
  const follow = async (link: Locator, path: string, title: string | RegExp) => {
    await link.click();
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe(path);
    paths.push(path);
    // The whole list each time: a second push for an earlier page would show here too.
    await expect.poll(async () => (await pageViews(page)).map((e) => e.page_path)).toEqual(paths);
    const pushed = (await pageViews(page)).at(-1)!;
    if (typeof title === 'string') expect(pushed.page_title).toBe(title);
    else expect(pushed.page_title).toMatch(title);
    // The title pushed is the new page's own, not the one it replaced.
    await expect(page).toHaveTitle(pushed.page_title!);
  };
  const postsLink = () =>
    page
      .getByRole('navigation', { name: 'メインメニュー' })
      .getByRole('link', { name: '記事', exact: true });

  await follow(postsLink(), '/posts', `記事 | ${site}`);
  const card = page.getByRole('main').getByRole('article').first();
  const title = (await card.getByRole('heading', { level: 2 }).textContent())!.trim();
  const href = (await card.getByRole('link').first().getAttribute('href'))!;
  expect(href).toMatch(/^\/posts\/[^/?]+$/);
  await follow(card.getByRole('link').first(), href, `${title} | ${site}`);
  await follow(postsLink(), '/posts', `記事 | ${site}`);
  await follow(
    page.getByRole('navigation', { name: 'ページ送り' }).getByRole('link', { name: '2 ページ目' }),
    '/posts?page=2',
    // The list's title, with or without its page number.
    new RegExp(`^記事.* \\| ${site}$`),
  );

  // One document all along: every page after the first came through the client router.
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
});

test('the mobile menu is a modal: Escape, 閉じる and the overlay close it, focus returns', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto('/');
  const opener = page.getByRole('button', { name: 'メニュー' });
  const dialog = page.getByRole('dialog', { name: 'メニュー' });

  await opener.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(dialog.getByRole('link', { name: /求人/ })).toBeVisible();
  // Focus stays inside while tabbing.
  for (let i = 0; i < 15; i++) await page.keyboard.press('Tab');
  expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await opener.click();
  await dialog.getByRole('button', { name: '閉じる' }).click();
  await expect(dialog).toBeHidden();

  await opener.click();
  await expect(dialog).toBeVisible();
  await page.mouse.click(350, 730); // the overlay, outside the dialog
  await expect(dialog).toBeHidden();
});

test('the snackbar tells the reader when the connection drops and hides itself', async ({
  page,
  context,
}) => {
  await page.goto('/');
  await expect.poll(async () => (await pageViews(page)).length).toBe(1); // hydrated
  await context.setOffline(true);
  const offline = page.getByRole('alert').filter({ hasText: 'インターネットに接続されていません' });
  await expect(offline).toBeVisible();
  await page.getByRole('button', { name: '閉じる' }).click();
  await expect(offline).toBeHidden();

  // The next snackbar appears where the pointer rests (on the close button just clicked), and
  // a snackbar under the pointer waits for its reader (WCAG 2.2.1): it stays past 3 s...
  await context.setOffline(false);
  const online = page.getByRole('status').filter({ hasText: '再接続しました' });
  await expect(online).toBeVisible();
  await page.getByRole('status').filter({ hasText: '再接続しました' }).hover();
  await page.waitForTimeout(3500);
  await expect(online).toBeVisible();
  // ...and hides 3 s after the pointer has left it.
  await page.mouse.move(5, 5);
  await expect(online).toBeHidden({ timeout: 6000 });
});

test('unknown paths answer a Japanese 404 page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ページが見つかりません');
  await expect(page).toHaveTitle(/^ページが見つかりません \| AXIS Membership$/);
});

test('the health endpoint reports the database', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: 'ok', db: 'ok' });
});

test('the page works without JavaScript: the menu link leads to the site map', async ({
  browser,
}) => {
  const context = await browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 360, height: 740 },
  });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'メニュー' }).click();
  await expect(page).toHaveURL(/#site-map$/);
  await context.close();
});

test('axe-core finds no accessibility violations on the home page at 1280 and 360 px', async ({
  page,
}) => {
  // Loaded once at 1280 px, then checked again at 360 px without reloading.
  await expectScreensAccessible(page, ['/'], { widths: [1280, 360], height: 800 });
});

test('the skip link moves focus to the main content', async ({ page }) => {
  await page.goto('/');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: '本文へスキップ' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('main#main')).toBeFocused();
});
