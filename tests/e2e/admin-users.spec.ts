import { type Browser, type BrowserContext, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import {
  CHECK_WIDTHS,
  expectAccessibleAtWidths,
  expectScreensAccessible,
  resizeTo,
} from './support/axe';
import { openDocument } from './support/document';

/**
 * The admin screens for users and the audit log (/admin/users, /admin/users/{id},
 * /admin/audit, docs/decisions/011-editorial-console.md): an admin finds a member, changes their
 * role, grants and revokes a complimentary plan, sets and clears their partner, signs them out
 * everywhere, and finds each change in the audit log; a visitor, a member and an editor get 404 for
 * the screens and the routes. axe on each screen at 360 and 1280 px, with no sideways scroll.
 */

test.describe.configure({ mode: 'serial' });

const PASSWORD = 'Kumo-Sora-2026!';
const stamp = Date.now().toString(36);
const email = (who: string) => `admin-users-${who}-${stamp}@example.jp`;
const USERS = {
  admin: email('admin'),
  editor: email('editor'),
  member: email('member'),
  target: email('target'),
} as const;
type Who = keyof typeof USERS;
const JSON_ACCEPT = { accept: 'application/json' };

const contexts: BrowserContext[] = [];
const ids = { target: '' };

/** A context signed in through the sign-in API (its pages share the cookie). */
async function signedIn(browser: Browser, who: Who): Promise<BrowserContext> {
  const context = await browser.newContext();
  contexts.push(context);
  const res = await context.request.post('/api/account/sign-in', {
    headers: JSON_ACCEPT,
    form: { email: USERS[who], password: PASSWORD },
  });
  expect(res.ok(), `${who} signs in`).toBe(true);
  return context;
}

test.beforeAll(async () => {
  const roles: Record<Who, string> = {
    admin: 'admin',
    editor: 'editor',
    member: 'member',
    target: 'member',
  };
  for (const who of Object.keys(USERS) as Who[])
    await admin('create-user', '--email', USERS[who], '--password', PASSWORD, '--role', roles[who]);
});

test.afterAll(async () => {
  for (const context of contexts) await context.close();
});

test('an admin finds a member and opens their page', async ({ browser }) => {
  const page = await (await signedIn(browser, 'admin')).newPage();
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { level: 1, name: 'ユーザー' })).toBeVisible();
  await page.getByLabel('メールアドレスまたは表示名で検索').fill(`target-${stamp}`);
  await page.getByRole('button', { name: '検索' }).click();
  await expect(page).toHaveURL(/\/admin\/users\?q=/);
  await expect(page.getByRole('status').filter({ hasText: '1人' })).toBeVisible();
  const link = page.getByRole('link', { name: USERS.target });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: USERS.target })).toBeVisible();
  ids.target = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  expect(ids.target).not.toBe('');
  // Junk parameters are ignored, never an error.
  expect((await page.goto('/admin/users?page=abc&q=a&q=b'))?.status()).toBe(200);
  expect((await page.goto('/admin/users?page=999999'))?.status()).toBe(200);
});

test('an admin changes the role, the plan, the partner and the sessions, each audited', async ({
  browser,
}) => {
  const targetContext = await signedIn(browser, 'target');
  const page = await (await signedIn(browser, 'admin')).newPage();
  await page.goto(`/admin/users/${ids.target}`);

  await page.getByLabel('新しい権限').selectOption('editor');
  await page.getByRole('button', { name: '権限を変更する' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: '「会員」から「編集者」に変更しました' }),
  ).toBeVisible();

  // The plan is one of the catalogue's, chosen, never typed.
  await page
    .getByRole('combobox', { name: 'プラン', exact: true })
    .selectOption({ label: 'メンバーシップ 年額プラン' });
  await page.getByLabel('期間（日数）').fill('abc');
  await page.getByRole('button', { name: '無償プランを付与する' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: '入力内容を確認してください。' }),
  ).toBeVisible();
  await expect(page.getByText('日数は半角数字で入力してください')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'プラン', exact: true })).toHaveValue('yearly');
  await page.getByLabel('期間（日数）').fill('30');
  await page.getByRole('button', { name: '無償プランを付与する' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: '無償プラン「メンバーシップ 年額プラン」' }),
  ).toBeVisible();
  await expect(page.getByText(/現在：有料会員（メンバーシップ 年額プラン、有効、/)).toBeVisible();
  await page.getByRole('button', { name: '無償プランを取り消す' }).click();
  await expect(page.getByRole('status').filter({ hasText: '1件取り消しました' })).toBeVisible();
  await expect(page.getByText('現在：無料会員')).toBeVisible();

  await page.getByLabel('所属するパートナー企業').selectOption('partner-sorane');
  await page.getByRole('button', { name: 'パートナー企業を保存する' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'のメンバーにしました' })).toBeVisible();
  await page.getByLabel('所属するパートナー企業').selectOption('');
  await page.getByRole('button', { name: 'パートナー企業を保存する' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'パートナー企業を解除しました' }),
  ).toBeVisible();

  // The member is signed in until the admin signs them out everywhere.
  const account = await targetContext.newPage();
  expect((await account.goto('/admin'))?.status()).toBe(200); // an editor now
  await page.getByRole('button', { name: 'すべての端末からログアウトさせる' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'の端末からログアウトさせました' }),
  ).toBeVisible();
  expect((await account.goto('/admin'))?.status()).toBe(404);

  // Each change is in the audit log, by this admin.
  await page.goto(`/admin/audit?q=${encodeURIComponent(`user:${ids.target}`)}`);
  for (const label of [
    '権限の変更',
    '無償プランの付与',
    '無償プランの取り消し',
    'パートナー企業の変更',
    'すべての端末からログアウト',
  ])
    await expect(page.getByRole('heading', { name: label }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: USERS.admin }).first()).toBeVisible();
  await page.getByLabel('操作').selectOption('role-changed');
  await page.getByRole('button', { name: '絞り込む' }).click();
  await expect(page).toHaveURL(/action=role-changed/);
  await expect(page.getByRole('heading', { name: '無償プランの付与' })).toHaveCount(0);
});

test('an admin cannot demote themself', async ({ browser }) => {
  const page = await (await signedIn(browser, 'admin')).newPage();
  await page.goto('/admin/users');
  await page.getByLabel('メールアドレスまたは表示名で検索').fill(USERS.admin);
  await page.getByRole('button', { name: '検索' }).click();
  await page.getByRole('link', { name: USERS.admin }).click();
  await page.getByLabel('新しい権限').selectOption('member');
  await page.getByRole('button', { name: '権限を変更する' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'ご自身の管理者権限は外せません' }),
  ).toBeVisible();
  expect((await page.goto('/admin/users'))?.status()).toBe(200);
});

test('a visitor, a member and an editor get 404 for the screens and the routes', async ({
  browser,
}) => {
  for (const who of [null, 'member', 'editor'] as const) {
    const context = who ? await signedIn(browser, who) : await browser.newContext();
    if (!who) contexts.push(context);
    const page = await context.newPage();
    for (const path of ['/admin/users', `/admin/users/${ids.target}`, '/admin/audit']) {
      const response = await openDocument(page, path);
      expect(response.status(), `${who ?? 'visitor'} ${path}`).toBe(404);
    }
    for (const [action, form] of [
      ['role', { role: 'admin' }],
      ['plan', { intent: 'grant', plan: '乗っ取り', status: 'active' }],
      ['partner', { partner: 'partner-sorane' }],
      ['sessions', {}],
    ] as const) {
      const res = await context.request.post(`/api/admin/users/${ids.target}/${action}`, {
        headers: JSON_ACCEPT,
        form,
        maxRedirects: 0,
      });
      expect(res.status(), `${who ?? 'visitor'} ${action}`).toBe(404);
    }
  }
  // Nothing changed: no plan was granted.
  const adminPage = await (await signedIn(browser, 'admin')).newPage();
  await adminPage.goto(`/admin/users/${ids.target}`);
  await expect(adminPage.getByText('現在：無料会員')).toBeVisible();
});

test('the screens pass axe at 360 and 1280 px, with no sideways scroll', async ({ browser }) => {
  const page = await (await signedIn(browser, 'admin')).newPage();
  await expectScreensAccessible(page, [
    '/admin/users',
    `/admin/users/${ids.target}`,
    '/admin/audit',
  ]);
  // And with a form's error shown.
  await resizeTo(page, CHECK_WIDTHS[0]);
  await page.goto(`/admin/users/${ids.target}`);
  await page.getByLabel('期間（日数）').fill('abc');
  await page.getByRole('button', { name: '無償プランを付与する' }).click();
  await expect(page.getByText('日数は半角数字で入力してください')).toBeVisible();
  await expectAccessibleAtWidths(page);
});
