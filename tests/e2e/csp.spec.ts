import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { type CspWatch, scriptSources, watchCsp } from './support/csp';
import { pageAs, signInAs } from './support/roles';
import { signIn } from './support/sign-in';

// The Content-Security-Policy (docs/decisions/013-production.md): the site works under it with no
// violation reported by Chromium, for a visitor (pages fresh and from the page cache, a video
// facade, search, sign-in), a member (account, checkout on the billing sandbox), a paid reader and
// an editor in the console; every answer carries a policy whose scripts are neither inline-anything
// nor eval; a cached page names its scripts by hash, a fresh render gets a fresh nonce.

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const PASSWORD = 'Mado-no-Soto-77';
const YOUTUBE_ID = 'aqz-KE-bpKQ';
const PAYWALL = 'この記事は有料会員限定です';

let apiKey = '';
let videoPostId = '';

/** The site's origin as the browser sees it. */
const originOf = (baseURL: string | undefined) => new URL(baseURL ?? 'http://127.0.0.1').origin;

test.beforeAll(async ({ request }) => {
  apiKey = (
    await admin('create-api-key', '--name', `e2e csp ${stamp}`, '--permissions', 'GET,POST,DELETE')
  ).at(-1)!;
  // A public post with a YouTube player in its body: the page shows the facade.
  const created = await request.post('/api/v1/posts', {
    headers: { 'X-MICROCMS-API-KEY': apiKey },
    data: {
      title: `動画の埋め込みがある記事 ${stamp}`,
      description: 'CSP の確認用',
      body: `<p>動画の前の段落です。</p><iframe src="https://www.youtube.com/embed/${YOUTUBE_ID}"></iframe><p>動画の後の段落です。</p>`,
      isPublicPreview: true,
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  videoPostId = ((await created.json()) as { id: string }).id;
});

test.afterAll(async ({ request }) => {
  // The specs that read the newest posts find the demo corpus as it was.
  if (videoPostId)
    await request.delete(`/api/v1/posts/${videoPostId}`, {
      headers: { 'X-MICROCMS-API-KEY': apiKey },
    });
});

/** No violation, and a policy on every answer that runs no inline code but by nonce or hash. */
async function expectPolicedWithoutViolations(watch: CspWatch): Promise<void> {
  expect(watch.violations).toEqual([]);
  const answers = await watch.answers();
  expect(answers.length).toBeGreaterThan(0);
  for (const { url, policy } of answers) {
    expect(policy, url).toBeDefined();
    const scripts = scriptSources(policy!);
    expect(scripts, url).not.toContain("'unsafe-inline'");
    expect(scripts, url).not.toContain("'unsafe-eval'");
  }
}

/** The page_view the tracker pushes once the page's scripts run (hydration happened). */
async function expectScriptsRan(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() =>
        ((window as unknown as { dataLayer?: { event?: string }[] }).dataLayer ?? []).some(
          (e) => e.event === 'page_view',
        ),
      ),
    )
    .toBe(true);
}

const nonceOf = (policy: string | null | undefined) =>
  scriptSources(policy ?? '').find((source) => source.startsWith("'nonce-"));

test('a visitor: the home page fresh and from the page cache, a video, search, sign-in', async ({
  page,
  baseURL,
}) => {
  const watch = await watchCsp(page, originOf(baseURL));

  // The home page until the page cache answers it (the first load may render or be a hit).
  let response = await page.goto('/');
  await expectScriptsRan(page);
  for (let i = 0; i < 3 && response?.headers()['x-page-cache'] !== 'hit'; i++) {
    response = await page.reload();
    await expectScriptsRan(page);
  }
  expect(response?.headers()['x-page-cache']).toBe('hit');
  const cachedPolicy = (await response!.allHeaders())['content-security-policy'];
  // A nonce served again is no nonce: the cached page's scripts are named by hash.
  expect(nonceOf(cachedPolicy)).toBeUndefined();
  expect(scriptSources(cachedPolicy ?? '').some((s) => s.startsWith("'sha256-"))).toBe(true);

  // The video facade: nothing from YouTube until the click, then its player in a frame.
  await page.goto(`/posts/${videoPostId}`);
  await expectScriptsRan(page);
  await expect(page.locator('iframe')).toHaveCount(0);
  await page.getByRole('link', { name: 'YouTubeの動画を再生する' }).click();
  await expect(
    page.locator(`iframe[src^="https://www.youtube.com/embed/${YOUTUBE_ID}"]`),
  ).toBeAttached();
  // A refused frame is reported as its navigation starts: give the report a moment to arrive.
  await page.waitForTimeout(500);

  // Search renders on every request: a fresh nonce each time.
  const first = await page.goto(`/search?q=${encodeURIComponent('デザイン')}`);
  await expectScriptsRan(page);
  const second = await page.reload();
  await expectScriptsRan(page);
  const nonces = [first, second].map((r) => nonceOf(r?.headers()['content-security-policy']));
  expect(nonces[0]).toMatch(/^'nonce-[A-Za-z0-9+/=]{20,}'$/);
  expect(nonces[1]).toMatch(/^'nonce-/);
  expect(nonces[1]).not.toBe(nonces[0]);

  // The 404 page is prerendered at build time (no nonce): its scripts must run all the same.
  await page.goto('/no-such-page-for-csp');
  await expectScriptsRan(page);

  await page.goto('/login');
  await expectScriptsRan(page);
  await expectPolicedWithoutViolations(watch);
});

async function newMember(name: string): Promise<string> {
  const email = `csp-${name}-${stamp}@example.jp`;
  await admin('create-user', '--email', email, '--password', PASSWORD, '--name', name);
  return email;
}

/** A members' post (not open to everyone). */
async function membersPost(request: APIRequestContext): Promise<string> {
  const list = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent('isPublicPreview[not_equals]true')}&limit=1&fields=id&orders=-publishedAt`,
    { headers: { 'X-MICROCMS-API-KEY': apiKey } },
  );
  expect(list.status()).toBe(200);
  return ((await list.json()) as { contents: { id: string }[] }).contents[0]!.id;
}

test('a member signs in, edits the account and reaches the sandbox checkout', async ({
  page,
  baseURL,
}) => {
  const watch = await watchCsp(page, originOf(baseURL));
  await signIn(page, await newMember('member'), PASSWORD);
  await expectScriptsRan(page);

  await page.goto('/account/edit');
  await expectScriptsRan(page);

  // Plans → final confirmation → a form post our route answers with a redirect to the hosted
  // checkout (form-action covers where the redirect ends).
  await page.goto('/service-plans');
  await page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: /月額/ }) })
    .getByRole('link', { name: 'このプランを選ぶ' })
    .click();
  await expect(page).toHaveURL(/\/service-plans\/confirm\?plan=/);
  await page.getByRole('button', { name: /確認して申し込む/ }).click();
  await expect(page).toHaveURL(/\/billing-sandbox\/checkout\/cs_/);
  await expect(page.getByRole('textbox', { name: 'カード番号', exact: true })).toBeVisible();
  await expectPolicedWithoutViolations(watch);
});

test('a paid reader reads a members’ post in full', async ({ page, request, baseURL }) => {
  const watch = await watchCsp(page, originOf(baseURL));
  const postId = await membersPost(request);
  await signInAs(page, 'paid');
  await page.goto('/'); // where signing in lands
  await expectScriptsRan(page);
  await page.goto(`/posts/${postId}`);
  await expectScriptsRan(page);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: PAYWALL })).toHaveCount(0);
  await expectPolicedWithoutViolations(watch);
});

test('an editor writes in the console’s rich-text editor', async ({ browser, baseURL }) => {
  const page = await pageAs(browser, 'editor');
  const watch = await watchCsp(page, originOf(baseURL));

  await page.goto('/admin/content/posts/new');
  await page.getByRole('textbox', { name: /^タイトル/ }).fill('CSP の確認（保存しない）');
  await page.getByRole('textbox', { name: '本文' }).click();
  await page.keyboard.type('エディタで入力した段落です。');
  await page
    .getByRole('toolbar', { name: '書式' })
    .getByRole('button', { name: '太字', exact: true })
    .click();
  await page.keyboard.type('太字の言葉');
  await expect(page.getByRole('textbox', { name: '本文' })).toContainText('太字の言葉');
  await expectPolicedWithoutViolations(watch);
  await page.context().close();
});
