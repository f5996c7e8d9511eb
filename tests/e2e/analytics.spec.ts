import { type APIRequestContext, type Page, type Request, expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { admin } from './support/admin';
import { signInAs } from './support/roles';

// First-party page views: a beacon to /api/analytics/view on the first load and on every
// client-side navigation, none after the reader opts out in the footer, and staff see the
// views at /admin/analytics.

type Beacon = { path: string; referrer?: string; visitorId: string };

const VIEW_ENDPOINT = '/api/analytics/view';
const OPT_OUT_LABEL = 'このブラウザでの閲覧の計測を停止する';

const isBeacon = (request: Request) =>
  request.method() === 'POST' && new URL(request.url()).pathname === VIEW_ENDPOINT;

/**
 * Chromium does not report a beacon's body to Playwright (microsoft/playwright#12231), so the
 * page records what it hands to sendBeacon; the network side is checked with waitForRequest.
 */
async function recordBeacons(page: Page) {
  await page.addInitScript(() => {
    const sent: string[] = [];
    (window as unknown as { __beacons: string[] }).__beacons = sent;
    const original = navigator.sendBeacon.bind(navigator);
    navigator.sendBeacon = (url, data) => {
      if (typeof data === 'string') sent.push(data);
      return original(url, data);
    };
  });
}

async function beaconsSent(page: Page): Promise<Beacon[]> {
  const sent = await page.evaluate(
    () => (window as unknown as { __beacons?: string[] }).__beacons ?? [],
  );
  return sent.map((body) => JSON.parse(body) as Beacon);
}

/** The page_view pushes so far: the tracker pushes one once it has handled a route change. */
async function pageViewPaths(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (
      (window as unknown as { dataLayer?: { event?: string; page_path?: string }[] }).dataLayer ??
      []
    )
      .filter((e) => e.event === 'page_view')
      .map((e) => e.page_path ?? ''),
  );
}

async function publicPost(request: APIRequestContext): Promise<{ id: string; title: string }> {
  const key = (await admin('create-api-key', '--name', 'e2e analytics', '--permissions', 'GET')).at(
    -1,
  )!;
  const response = await request.get(
    `/api/v1/posts?limit=1&fields=id,title&filters=${encodeURIComponent('isPublicPreview[equals]true')}`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { contents: { id: string; title: string }[] }).contents[0]!;
}

/** Client-side: the header's link to the post list, then the list's heading. */
async function goToPostListClientSide(page: Page) {
  await page.evaluate(() => ((window as unknown as { __marker: number }).__marker = 1));
  await page
    .getByRole('navigation', { name: 'メインメニュー' })
    .getByRole('link', { name: '記事', exact: true })
    .click();
  await expect(page).toHaveURL(/\/posts$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('記事');
  await expect.poll(() => pageViewPaths(page)).toContain('/posts');
  // The window survived: it was a client-side navigation.
  expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
}

test('a post view and a client-side navigation each send a beacon with one kept visitor id', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await recordBeacons(page);
  const post = await publicPost(request);

  const firstRequest = page.waitForRequest(isBeacon);
  await page.goto(`/posts/${post.id}`);
  await firstRequest;
  await expect.poll(async () => (await beaconsSent(page)).length).toBe(1);
  const [view] = await beaconsSent(page);
  expect(view?.path).toBe(`/posts/${post.id}`);
  expect(view?.referrer).toBeUndefined();
  const visitorId = view!.visitorId;
  expect(visitorId).toMatch(
    /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  expect(await page.evaluate(() => localStorage.getItem('axis_visitor_id'))).toBe(visitorId);
  // No cookie carries it.
  expect((await page.context().cookies()).filter((c) => c.value.includes(visitorId))).toEqual([]);

  const secondRequest = page.waitForRequest(isBeacon);
  await goToPostListClientSide(page);
  await secondRequest;
  await expect.poll(async () => (await beaconsSent(page)).length).toBe(2);
  expect((await beaconsSent(page))[1]).toEqual({
    path: '/posts',
    referrer: `${new URL(page.url()).origin}/posts/${post.id}`,
    visitorId,
  });

  // A new page load keeps the same visitor id.
  const thirdRequest = page.waitForRequest(isBeacon);
  await page.reload();
  await thirdRequest;
  await expect.poll(async () => (await beaconsSent(page))[0]?.visitorId).toBe(visitorId);

  // The server stored the view: staff see the post, by its title, at /admin/analytics.
  await signInAs(page, 'editor');
  await page.goto('/admin/analytics');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('分析');
  await expect(
    page
      .getByRole('table', { name: /よく読まれたコンテンツ/ })
      .getByRole('link', { name: post.title }),
  ).toHaveAttribute('href', `/posts/${post.id}`);
  await expectNoAxeViolations(page);
});

test('after opting out in the footer no beacon is sent, until the reader opts back in', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await recordBeacons(page);
  const post = await publicPost(request);
  const requests: Request[] = [];
  page.on('request', (r) => {
    if (isBeacon(r)) requests.push(r);
  });

  const firstRequest = page.waitForRequest(isBeacon);
  await page.goto(`/posts/${post.id}`);
  await firstRequest;

  const optOut = page.getByRole('checkbox', { name: OPT_OUT_LABEL });
  await optOut.scrollIntoViewIfNeeded();
  await expect(optOut).not.toBeChecked();
  await optOut.check();
  await expect(optOut).toBeChecked();
  expect(await page.evaluate(() => localStorage.getItem('axis_analytics_opt_out'))).toBe('1');
  expect(await page.evaluate(() => localStorage.getItem('axis_visitor_id'))).toBeNull();

  const before = requests.length;
  await goToPostListClientSide(page);
  // The tracker has handled the route change (its page_view is there); give a beacon time to show.
  await page.waitForTimeout(500);
  expect(requests.length).toBe(before);
  expect(await beaconsSent(page)).toHaveLength(1);

  // The choice outlives the page: a new load sends nothing either.
  await page.goto(`/posts/${post.id}`);
  await expect.poll(() => pageViewPaths(page)).toEqual([`/posts/${post.id}`]);
  await page.waitForTimeout(500);
  expect(requests.length).toBe(before);
  await expect(page.getByRole('checkbox', { name: OPT_OUT_LABEL })).toBeChecked();

  // Opting back in measures the next page again.
  await page.getByRole('checkbox', { name: OPT_OUT_LABEL }).uncheck();
  const again = page.waitForRequest(isBeacon);
  await goToPostListClientSide(page);
  await again;
  await expect.poll(async () => (await beaconsSent(page)).at(-1)?.path).toBe('/posts');
});

test('Do Not Track sends no beacon and the footer says so', async ({ page }) => {
  await page.addInitScript(() => {
    Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' });
  });
  const requests: Request[] = [];
  page.on('request', (r) => {
    if (isBeacon(r)) requests.push(r);
  });
  await page.goto('/');
  await expect.poll(() => pageViewPaths(page)).toEqual(['/']);
  await page.waitForTimeout(500);
  expect(requests).toEqual([]);
  await expect(page.getByText(/トラッキング拒否/)).toBeVisible();
  await expect(page.getByRole('checkbox', { name: OPT_OUT_LABEL })).toHaveCount(0);
});

test('the view endpoint refuses a foreign origin and a malformed body', async ({ request }) => {
  const foreign = await request.post(VIEW_ENDPOINT, {
    headers: { origin: 'https://evil.example', 'content-type': 'text/plain' },
    data: JSON.stringify({ path: '/', visitorId: '11111111-1111-4111-8111-111111111111' }),
  });
  expect(foreign.status()).toBe(403);
  const malformed = await request.post(VIEW_ENDPOINT, {
    headers: { 'content-type': 'text/plain' },
    data: 'not json',
  });
  expect(malformed.status()).toBe(400);
  expect(((await malformed.json()) as { message: string }).message).toMatch(/計測データ/);
});
