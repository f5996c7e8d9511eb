import {
  type APIRequestContext,
  type Locator,
  type Page,
  type Response,
  expect,
  test,
} from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { admin } from './support/admin';
import { signInByApi, submitLogin } from './support/sign-in';

// Bookmarks (docs/decisions/005-reading-experience.md): stored per user, added and removed through
// /api/bookmarks, listed newest first at /posts/bookmark, correct after a reload; anonymous
// visitors go to /login.

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const password = 'shiori-no-ito-21';

type Item = { id: string; title: string };

async function latestPosts(request: APIRequestContext, count: number): Promise<Item[]> {
  const key = (await admin('create-api-key', '--name', 'e2e bookmarks', '--permissions', 'GET')).at(
    -1,
  )!;
  const res = await request.get(
    `/api/v1/posts?limit=${count}&fields=id,title&orders=-publishedAt`,
    {
      headers: { 'X-MICROCMS-API-KEY': key },
    },
  );
  expect(res.status()).toBe(200);
  return ((await res.json()) as { contents: Item[] }).contents;
}

async function createMember(name: string): Promise<string> {
  const email = `${name}-${stamp}@example.jp`;
  await admin('create-user', '--email', email, '--password', password, '--name', name);
  return email;
}

async function newMember(page: Page, name: string): Promise<void> {
  const email = await createMember(name);
  await signInByApi(page.context(), email, password);
}

/** POST /api/bookmarks as the page's browser would (its cookies, same origin). */
async function bookmark(
  page: Page,
  baseURL: string,
  item: Item,
  action: 'add' | 'remove',
): Promise<number> {
  const res = await page.request.post('/api/bookmarks', {
    headers: { accept: 'application/json', origin: baseURL },
    data: { endpoint: 'posts', contentId: item.id, action },
  });
  return res.status();
}

async function bookmarkedOf(page: Page, items: Item[]): Promise<string[]> {
  const res = await page.request.get(
    `/api/bookmarks?items=${items.map((i) => `posts:${i.id}`).join(',')}`,
  );
  expect(res.status()).toBe(200);
  expect(res.headers()['cache-control']).toBe('private, no-store');
  return ((await res.json()) as { bookmarked: string[] }).bookmarked;
}

/** The toggle of one item, by the title in its accessible name. */
const toggleOf = (page: Page, title: string) =>
  page
    .getByRole('main')
    .getByRole('button', { name: new RegExp(`^ブックマーク.*${escapeRegExp(title)}`) });

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const isBookmarksApi = (url: URL) => url.pathname === '/api/bookmarks';
const isSave = (response: Response) =>
  isBookmarksApi(new URL(response.url())) && response.request().method() === 'POST';

/**
 * Loads a page (or reloads it) and waits for the buttons' one read of the saved state, so the
 * page is hydrated and a click is handled by the script rather than by the form.
 */
async function loadWithState(page: Page, load: () => Promise<unknown>): Promise<void> {
  const read = page.waitForResponse(
    (r) => isBookmarksApi(new URL(r.url())) && r.request().method() === 'GET',
  );
  await load();
  expect((await read).status()).toBe(200);
}

/**
 * Clicks a toggle while the server's answer is held back: the new state must show before the
 * save is answered (optimistic), and stay once it has been.
 */
async function toggleAtOnce(page: Page, toggle: Locator, pressed: boolean): Promise<void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(isBookmarksApi, async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  const sent = page.waitForRequest(
    (r) => isBookmarksApi(new URL(r.url())) && r.method() === 'POST',
  );
  const saved = page.waitForResponse(isSave);
  await toggle.click();
  await sent;
  await expect(toggle).toHaveAttribute('aria-pressed', String(pressed));
  release();
  expect((await saved).status()).toBe(200);
  await page.unroute(isBookmarksApi);
  await expect(toggle).toHaveAttribute('aria-pressed', String(pressed));
}

test('add through the API, see it listed newest first, remove it on the page, and it stays removed', async ({
  page,
  baseURL,
}) => {
  const [newer, older] = await latestPosts(page.request, 2);
  await newMember(page, 'bookmark-reader');

  await page.goto('/posts/bookmark');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ブックマーク');
  await expect(page.getByText('ブックマークした記事はまだありません')).toBeVisible();
  await expect(page.getByRole('main').getByRole('link', { name: '記事を探す' })).toHaveAttribute(
    'href',
    '/posts',
  );

  // Added older first: the list shows the newer bookmark first. Adding twice changes nothing.
  expect(await bookmark(page, baseURL!, older!, 'add')).toBe(200);
  expect(await bookmark(page, baseURL!, newer!, 'add')).toBe(200);
  expect(await bookmark(page, baseURL!, newer!, 'add')).toBe(200);
  expect((await bookmarkedOf(page, [newer!, older!])).sort()).toEqual(
    [`posts:${newer!.id}`, `posts:${older!.id}`].sort(),
  );

  await page.goto('/posts/bookmark');
  await expect(page).toHaveTitle('ブックマーク | AXIS Membership');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.getByText('2 件を新しい順に表示しています。')).toBeVisible();
  const titles = page.getByRole('main').getByRole('heading', { level: 2 });
  await expect(titles).toHaveText([newer!.title, older!.title]);
  await expect(page.getByRole('link', { name: newer!.title })).toHaveAttribute(
    'href',
    `/posts/${newer!.id}`,
  );
  await expect(toggleOf(page, newer!.title)).toHaveAttribute('aria-pressed', 'true');
  await expectNoAxeViolations(page);

  // Remove both with the page's buttons: the change shows at once and is saved.
  for (const item of [newer!, older!]) {
    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/bookmarks') && r.request().method() === 'POST',
    );
    await toggleOf(page, item.title).click();
    await expect(toggleOf(page, item.title)).toHaveAttribute('aria-pressed', 'false');
    expect((await saved).status()).toBe(200);
  }

  await page.reload();
  await expect(page.getByText('ブックマークした記事はまだありません')).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: /ブックマーク/ })).toHaveCount(0);
  expect(await bookmarkedOf(page, [newer!, older!])).toEqual([]);
});

test('clicks on a post page and on a list card show at once, outlast a reload, and are undone on the bookmarks page', async ({
  page,
}) => {
  const [article] = await latestPosts(page.request, 1);
  await newMember(page, 'bookmark-clicker');

  // The post page's own button.
  await loadWithState(page, () => page.goto(`/posts/${article!.id}`));
  const onArticle = toggleOf(page, article!.title);
  await expect(onArticle).toHaveAttribute('aria-pressed', 'false');
  await toggleAtOnce(page, onArticle, true);
  await expect(onArticle).toContainText('ブックマーク済み');
  await loadWithState(page, () => page.reload());
  await expect(onArticle).toHaveAttribute('aria-pressed', 'true');

  // A card of the post list: another post.
  await loadWithState(page, () => page.goto('/posts'));
  const card = page
    .getByRole('main')
    .getByRole('article')
    .filter({ hasNot: page.getByRole('heading', { name: article!.title, exact: true }) })
    .first();
  const cardTitle = (await card.getByRole('heading', { level: 2 }).textContent())!.trim();
  const cardHref = (await card.getByRole('link').first().getAttribute('href'))!;
  expect(cardHref).toMatch(/^\/posts\/[^/?]+$/);
  const onCard = toggleOf(page, cardTitle);
  await expect(onCard).toHaveAttribute('aria-pressed', 'false');
  await toggleAtOnce(page, onCard, true);
  await loadWithState(page, () => page.reload());
  await expect(onCard).toHaveAttribute('aria-pressed', 'true');

  // Both are listed, the latest saved first.
  await page.goto('/posts/bookmark');
  await expect(
    page.getByRole('banner').getByRole('button', { name: 'bookmark-clicker' }),
  ).toBeVisible(); // hydrated: the buttons answer clicks with the script
  await expect(page.getByText('2 件を新しい順に表示しています。')).toBeVisible();
  await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveText([
    cardTitle,
    article!.title,
  ]);
  await expect(page.getByRole('link', { name: cardTitle })).toHaveAttribute('href', cardHref);

  // Removed there: at once, and for good.
  for (const title of [cardTitle, article!.title])
    await toggleAtOnce(page, toggleOf(page, title), false);
  await page.reload();
  await expect(page.getByText('ブックマークした記事はまだありません')).toBeVisible();
  await loadWithState(page, () => page.goto(`/posts/${article!.id}`));
  await expect(toggleOf(page, article!.title)).toHaveAttribute('aria-pressed', 'false');
  await expect(toggleOf(page, article!.title)).not.toContainText('ブックマーク済み');
});

test('a post page has a bookmark button', async ({ page }) => {
  const [post] = await latestPosts(page.request, 1);
  await page.goto(`/posts/${post!.id}`);
  await expect(page.getByRole('button', { name: /ブックマーク/ }).first()).toBeVisible();
});

test('without JavaScript the remove button is a form that posts and comes back', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const [post] = await latestPosts(page.request, 1);
  await newMember(page, 'bookmark-nojs');
  expect(await bookmark(page, baseURL!, post!, 'add')).toBe(200);

  await page.goto('/posts/bookmark');
  await expect(page.getByRole('link', { name: post!.title })).toBeVisible();
  await toggleOf(page, post!.title).click();
  await expect(page).toHaveURL(/\/posts\/bookmark$/);
  await expect(page.getByText('ブックマークした記事はまだありません')).toBeVisible();
  await context.close();
});

test('the bookmarks of one reader are not another’s', async ({ browser, baseURL }) => {
  const first = await browser.newContext();
  const second = await browser.newContext();
  const a = await first.newPage();
  const b = await second.newPage();
  const [post] = await latestPosts(a.request, 1);
  await newMember(a, 'bookmark-first');
  await newMember(b, 'bookmark-second');
  expect(await bookmark(a, baseURL!, post!, 'add')).toBe(200);
  expect(await bookmarkedOf(a, [post!])).toEqual([`posts:${post!.id}`]);
  expect(await bookmarkedOf(b, [post!])).toEqual([]);
  await b.goto('/posts/bookmark');
  await expect(b.getByText('ブックマークした記事はまだありません')).toBeVisible();
  await first.close();
  await second.close();
});

test('anonymous visitors: the page sends them to /login and back; the API saves nothing', async ({
  page,
  request,
  baseURL,
}) => {
  await page.goto('/posts/bookmark');
  await expect(page).toHaveURL(/\/login\?next=%2Fposts%2Fbookmark$/);

  const [post] = await latestPosts(request, 1);
  const read = await request.get(`/api/bookmarks?items=posts:${post!.id}`);
  expect(read.status()).toBe(200);
  expect(await read.json()).toEqual({ bookmarked: [], signedIn: false });

  const add = await request.post('/api/bookmarks', {
    headers: { accept: 'application/json', origin: baseURL! },
    data: { endpoint: 'posts', contentId: post!.id, action: 'add' },
  });
  expect(add.status()).toBe(401);
  expect(((await add.json()) as { message: string }).message).toBe(
    'ブックマークするにはログインしてください。',
  );

  const crossSite = await request.post('/api/bookmarks', {
    headers: { accept: 'application/json', origin: 'https://evil.example' },
    data: { endpoint: 'posts', contentId: post!.id, action: 'add' },
  });
  expect(crossSite.status()).toBe(403);

  const tooMany = await request.get(
    `/api/bookmarks?items=${Array.from({ length: 101 }, (_, i) => `posts:p${i}`).join(',')}`,
  );
  expect(tooMany.status()).toBe(400);
});

test('an anonymous click on a post page’s button leads to /login and back', async ({ page }) => {
  const [post] = await latestPosts(page.request, 1);
  const email = await createMember('bookmark-returning');
  await page.goto(`/posts/${post!.id}`);
  // Once the auth state has loaded, the click explains instead of saving.
  await expect(page.getByRole('banner').getByRole('link', { name: 'ログイン' })).toBeVisible();
  await page
    .getByRole('main')
    .getByRole('button', { name: /ブックマーク/ })
    .first()
    .click();
  // The dialog says why before it leads to the login page.
  await page
    .getByRole('dialog', { name: 'ブックマークするにはログインしてください' })
    .getByRole('link', { name: 'ログイン' })
    .click();
  await expect(page).toHaveURL(
    new RegExp(`/login\\?next=${escapeRegExp(encodeURIComponent(`/posts/${post!.id}`))}$`),
  );

  // Signing in there brings the reader back to the post; the click saved nothing.
  await submitLogin(page, email, password);
  await expect(page).toHaveURL(new RegExp(`/posts/${escapeRegExp(post!.id)}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(post!.title);
  await expect(
    page.getByRole('banner').getByRole('button', { name: 'bookmark-returning' }),
  ).toBeVisible();
  expect(await bookmarkedOf(page, [post!])).toEqual([]);
});
