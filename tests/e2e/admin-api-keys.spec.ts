import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  expect,
  test,
} from '@playwright/test';
import { admin } from './support/admin';
import { CHECK_WIDTHS, expectAccessibleAtWidths, expectScreensAccessible } from './support/axe';

/**
 * /admin/api-keys and the console's navigation (docs/decisions/011-editorial-console.md): an admin
 * creates a content API key, sees it once (never again on reload), uses it against /api/v1, and
 * revokes it (then 401), with and without JavaScript. An editor, a member and a visitor get 404 for
 * the page and its routes, and an editor's console offers no admin screens. axe at 360 and 1280 px.
 */

test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const PASSWORD = 'Kumo-Sora-2026!';
const JSON_ACCEPT = { accept: 'application/json' };
const WHO = ['admin', 'editor', 'member'] as const;
type Who = (typeof WHO)[number];
const email = (who: Who) => `api-keys-${who}-${stamp}@example.jp`;

test.beforeAll(async () => {
  for (const who of WHO)
    await admin('create-user', '--email', email(who), '--password', PASSWORD, '--role', who);
});

/** A fresh context, signed in through the API (or anonymous), and a page in it. */
async function open(
  browser: Browser,
  who: Who | null,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options);
  if (who) {
    const signIn = await context.request.post('/api/account/sign-in', {
      headers: JSON_ACCEPT,
      form: { email: email(who), password: PASSWORD },
    });
    expect(signIn.ok(), `${who} signs in`).toBe(true);
  }
  return { context, page: await context.newPage() };
}

const consoleNav = (page: Page) => page.getByRole('navigation', { name: '管理画面' });

test('an admin creates a key, sees it once, uses it, and revokes it', async ({
  browser,
  request,
}) => {
  const { context, page } = await open(browser, 'admin', {
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  await page.goto('/admin');
  await consoleNav(page).getByRole('link', { name: 'APIキー' }).click();
  await expect(page).toHaveURL(/\/admin\/api-keys$/);
  await expect(consoleNav(page).getByRole('link', { name: 'APIキー' })).toHaveAttribute(
    'aria-current',
    'page',
  );

  const name = `E2E 配信 ${stamp}`;
  await page.getByLabel('名前', { exact: true }).fill(name);
  await expect(page.getByRole('checkbox', { name: /^読み取り/ })).toBeChecked();
  const shown = page.waitForResponse(
    (r) =>
      r.request().method() === 'GET' &&
      r.request().resourceType() === 'document' &&
      new URL(r.url()).pathname === '/admin/api-keys',
  );
  await page.getByRole('button', { name: 'キーを作成' }).click();
  const answer = await shown;
  expect(answer.headers()['cache-control']).toContain('no-store');

  const keyBox = page.locator('#new-api-key');
  await expect(keyBox).toBeVisible();
  const key = (await keyBox.textContent())!.trim();
  expect(key).toMatch(/^cms_[A-Za-z0-9_-]{43}$/);
  expect(page.url()).not.toContain(key);
  await expect(page.getByText('このキーが表示されるのは今回だけです。')).toBeVisible();
  await page.getByRole('button', { name: 'キーをコピー' }).click();
  await expect(page.getByText('キーをコピーしました。')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  // The key reads the content API, and nothing more.
  const headers = { 'X-MICROCMS-API-KEY': key };
  expect((await request.get('/api/v1/posts', { headers })).status()).toBe(200);
  const write = await request.post('/api/v1/categories', {
    headers: { ...headers, 'content-type': 'application/json' },
    data: { name: `書けないはず ${stamp}` },
  });
  expect(write.status()).toBe(400);

  // Shown once: a reload has no key, and the list has its prefix and its last use.
  await page.reload();
  await expect(page.locator('#new-api-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(key.slice(0, 10));
  await expect(row).toContainText('読み取り');
  await expect(row).not.toContainText('未使用');
  await expect(row).toContainText('有効');

  await row.locator('summary').click();
  await row.getByRole('button', { name: '無効にする（確定）' }).click();
  await expect(page.getByText(`APIキー「${name}」を無効にしました。`)).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: name })).toContainText('無効');
  expect((await request.get('/api/v1/posts', { headers })).status()).toBe(401);
  await context.close();
});

test('without JavaScript: field errors, then a key, then revoking it', async ({
  browser,
  request,
}) => {
  const { context, page } = await open(browser, 'admin', { javaScriptEnabled: false });
  await page.goto('/admin/api-keys');
  const name = `E2E JSなし ${stamp}`;
  await page.getByLabel('名前', { exact: true }).fill(name);
  await page.getByRole('checkbox', { name: /^読み取り/ }).uncheck();
  await page.getByRole('checkbox', { name: /^下書きの読み取り/ }).check();
  await page.getByRole('button', { name: 'キーを作成' }).click();
  await expect(page.getByRole('alert')).toContainText('入力内容を確認してください。');
  await expect(page.getByText('「下書きの読み取り」には「読み取り」も必要です。')).toBeVisible();
  // What was typed and ticked comes back.
  await expect(page.getByLabel('名前', { exact: true })).toHaveValue(name);
  await expect(page.getByRole('checkbox', { name: /^下書きの読み取り/ })).toBeChecked();
  await expect(page.getByRole('row').filter({ hasText: name })).toHaveCount(0);

  await page.getByRole('checkbox', { name: /^読み取り/ }).check();
  await page.getByRole('button', { name: 'キーを作成' }).click();
  const key = (await page.locator('#new-api-key').textContent())!.trim();
  expect(key).toMatch(/^cms_/);
  const headers = { 'X-MICROCMS-API-KEY': key };
  expect((await request.get('/api/v1/posts', { headers })).status()).toBe(200);

  const row = page.getByRole('row').filter({ hasText: name });
  await row.locator('summary').click();
  await row.getByRole('button', { name: '無効にする（確定）' }).click();
  await expect(page.getByText(`APIキー「${name}」を無効にしました。`)).toBeVisible();
  expect((await request.get('/api/v1/posts', { headers })).status()).toBe(401);
  await context.close();
});

test('an editor, a member and a visitor get 404 for the page and its routes', async ({
  browser,
}) => {
  // A key for them to try to revoke.
  const made = await admin(
    'create-api-key',
    '--name',
    `E2E 残るキー ${stamp}`,
    '--permissions',
    'GET',
  );
  const id = /id ([0-9a-f-]{36})/.exec(made.join('\n'))![1]!;
  for (const who of ['editor', 'member', null] as const) {
    const { context, page } = await open(browser, who);
    const label = who ?? 'anonymous';
    expect((await page.goto('/admin/api-keys'))?.status(), `${label} page`).toBe(404);
    for (const url of ['/api/admin/api-keys', `/api/admin/api-keys/${id}/revoke`]) {
      for (const accept of [JSON_ACCEPT, { accept: 'text/html' }]) {
        const res = await context.request.post(url, {
          headers: accept,
          form: { name: `乗っ取り ${stamp}`, permission_GET: 'on' },
          maxRedirects: 0,
        });
        expect(res.status(), `${label} POST ${url}`).toBe(404);
      }
    }
    await context.close();
  }
  // Nothing changed: the key is active and no key was made.
  const list = (await admin('list-api-keys')).join('\n');
  expect(list).not.toContain(`乗っ取り ${stamp}`);
  expect(list.split('\n').find((line) => line.startsWith(id))).not.toContain('無効化');
});

test("an editor's console offers no admin screens", async ({ browser }) => {
  const { context, page } = await open(browser, 'editor');
  await page.goto('/admin');
  const nav = consoleNav(page);
  await expect(nav.getByRole('link', { name: 'トップ' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'メール送信箱' })).toBeVisible();
  for (const label of ['ユーザー', 'APIキー', '監査ログ'])
    await expect(page.getByRole('link', { name: label })).toHaveCount(0);
  const html = await page.content();
  for (const path of ['/admin/users', '/admin/api-keys', '/admin/audit'])
    expect(html).not.toContain(`href="${path}"`);
  await context.close();

  // Nor anything of the console for a member.
  const member = await open(browser, 'member');
  expect((await member.page.goto('/admin'))?.status()).toBe(404);
  await expect(consoleNav(member.page)).toHaveCount(0);
  await member.context.close();
});

test('the console start page and the keys screen pass axe at 360 and 1280 px', async ({
  browser,
}) => {
  const { context, page } = await open(browser, 'admin');
  await expectScreensAccessible(page, ['/admin', '/admin/api-keys']);
  // With a new key shown, and with the form's messages (made at 1280 px, then checked at 360 px).
  await page.getByLabel('名前', { exact: true }).fill(`E2E axe ${stamp}`);
  await page.getByRole('button', { name: 'キーを作成' }).click();
  await expect(page.locator('#new-api-key')).toBeVisible();
  await expectAccessibleAtWidths(page, 'a new key', { widths: [...CHECK_WIDTHS].reverse() });
  await page.getByRole('button', { name: 'キーを作成' }).click();
  await expect(page.getByText('名前を入力してください。')).toBeVisible();
  await expectAccessibleAtWidths(page, 'the form with its messages');
  await context.close();
});
