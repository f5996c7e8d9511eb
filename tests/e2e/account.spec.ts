import { type Page, expect, test } from '@playwright/test';
import path from 'node:path';
import { admin } from './support/admin';
import { CHECK_WIDTHS, expectAccessibleAtWidths, resizeTo } from './support/axe';
import { E2E_ROOT } from './support/settings';
import { latestLink } from './support/mail';
import { passwordLoginForm, submitLogin } from './support/sign-in';

// The whole life of an account, as a reader goes through it in the browser.
test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const email = `reader-${stamp}@example.jp`;
const newEmail = `reader-new-${stamp}@example.jp`;
const password = 'yoru-no-kissaten-7';
const newPassword = 'asa-no-toshokan-8';

/** Sends the login form; the answer (a refusal or the next page) is the test's to check. */
async function signIn(page: Page, address: string, secret: string) {
  await page.goto('/login');
  await submitLogin(page, address, secret);
}

const accountButton = (page: Page, name: string) =>
  page.getByRole('banner').getByRole('button', { name });

test('sign-up → verify → sign-in → edit → change e-mail → sign-out → reset password → delete', async ({
  page,
  baseURL,
}) => {
  // Some twenty pages and mails in one journey: more than the default 30 s on a slow machine.
  test.setTimeout(90_000);
  // Sign-up: the errors appear beside their fields and what was typed stays.
  await page.goto('/sign-up');
  await page.getByLabel('表示名').fill('読者 はなこ');
  await page.getByRole('main').getByLabel('メールアドレス').fill(email);
  await page.getByLabel('パスワード', { exact: true }).fill('password');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText(/このパスワードは推測されやすいため使えません。/)).toBeVisible();
  await expect(page.getByText('利用規約とプライバシーポリシーへの同意が必要です。')).toBeVisible();
  await expect(page.getByLabel('パスワード', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(page.getByRole('main').getByLabel('メールアドレス')).toHaveValue(email);

  await page.getByLabel('パスワード', { exact: true }).fill(password);
  await page.getByLabel(/に同意します/).check();
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByRole('heading', { name: '確認メールを送信しました' })).toBeVisible();

  // Not verified yet: sign-in is refused with a Japanese explanation.
  await signIn(page, email, password);
  await expect(page.getByRole('main').getByRole('alert')).toContainText(
    'メールアドレスの確認が済んでいません',
  );

  // The link from the outbox verifies the address and signs the reader in, once.
  const verifyLink = await latestLink(email, 'verify-email', baseURL!);
  await page.goto(verifyLink);
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(accountButton(page, '読者 はなこ')).toBeVisible();
  // The same link again signs nobody in: it lands on the login page, signed out.
  await page.context().clearCookies();
  await page.goto(verifyLink);
  await expect(page).toHaveURL(/\/login\?verified=1/);
  await expect(page.getByRole('heading', { name: 'ログイン', level: 1 })).toBeVisible();

  // A wrong password, then the right one; the header then shows the member.
  await signIn(page, email, 'not-the-password');
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'メールアドレスまたはパスワードが正しくありません。',
  );
  await signIn(page, email, password);
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(accountButton(page, '読者 はなこ')).toBeVisible();

  // Edit the profile.
  await page.goto('/account/edit');
  await page.getByLabel('表示名').fill('読者 花子');
  await page.getByLabel('職種').selectOption('デザイナー');
  await page.getByLabel('会社名・所属').fill('スタジオ 花');
  await page.getByRole('checkbox', { name: 'グラフィック' }).check();
  await page
    .getByLabel('プロフィール画像', { exact: true })
    .setInputFiles(path.join(E2E_ROOT, 'assets/demo/logo-01.png'));
  await page.getByRole('button', { name: '保存する' }).click();
  await expect(page).toHaveURL(/\/account\/edit\?saved=1/);
  await expect(page.getByText('プロフィールを保存しました。')).toBeVisible();
  await expect(page.getByLabel('会社名・所属')).toHaveValue('スタジオ 花');
  await expect(page.getByRole('checkbox', { name: 'グラフィック' })).toBeChecked();
  const avatar = page.getByRole('img', { name: '現在のプロフィール画像' });
  await expect(avatar).toHaveAttribute('src', /^\/uploads\/images\//);
  // Loaded, not just named: the picture arrives after the attribute.
  await expect
    .poll(() => avatar.evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBeGreaterThan(0);
  // A file that is not a picture is refused beside the field.
  await page.getByLabel('プロフィール画像', { exact: true }).setInputFiles({
    name: 'note.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not really a picture'),
  });
  await page.getByRole('button', { name: '保存する' }).click();
  await expect(page.getByLabel('プロフィール画像', { exact: true })).toHaveAttribute(
    'aria-invalid',
    'true',
  );
  await expect(accountButton(page, '読者 花子')).toBeVisible();

  // Change the e-mail address: nothing changes until the new address's link is followed.
  await page.goto('/account/change-email');
  await page.getByLabel('新しいメールアドレス').fill(newEmail);
  await page.getByLabel('現在のパスワード').fill(password);
  await page.getByRole('button', { name: '確認メールを送る' }).click();
  await expect(page.getByText('確認メールを送信しました。')).toBeVisible();
  await expect(page.getByText(`現在のメールアドレス: ${email}`)).toBeVisible();
  await page.goto(await latestLink(newEmail, 'change-email', baseURL!));
  await expect(page).toHaveURL(/\/account\/edit\?email=changed/);
  await expect(page.getByText('メールアドレスを変更しました。')).toBeVisible();
  await expect(page.getByText(newEmail)).toBeVisible();

  // Sign out from the header menu.
  await accountButton(page, '読者 花子').click();
  await page.getByRole('button', { name: 'ログアウト' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'ログイン' })).toBeVisible();

  // Forgot the password: reset it through the mailed link; the link works once.
  await page.goto('/account/forgot-password');
  await page.getByRole('main').getByLabel('メールアドレス').fill(newEmail);
  await page.getByRole('button', { name: '再設定のリンクを送る' }).click();
  await expect(page.getByText(/パスワード再設定のご案内を送信しました/)).toBeVisible();
  const resetLink = await latestLink(newEmail, 'reset-password', baseURL!);
  await page.goto(resetLink);
  await page.getByLabel('新しいパスワード', { exact: true }).fill(newPassword);
  await page.getByLabel('新しいパスワード（確認）').fill(newPassword);
  await page.getByRole('button', { name: 'パスワードを設定する' }).click();
  await expect(page).toHaveURL(/\/login\?reset=1/);
  await page.goto(resetLink);
  await page.getByLabel('新しいパスワード', { exact: true }).fill('a-third-password-9');
  await page.getByLabel('新しいパスワード（確認）').fill('a-third-password-9');
  await page.getByRole('button', { name: 'パスワードを設定する' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toContainText('すでに使われています');

  await signIn(page, newEmail, newPassword);
  await expect(accountButton(page, '読者 花子')).toBeVisible();

  // Delete the account: it asks for the password and a confirmation, then signs out.
  await page.goto('/account/delete');
  await expect(page.getByText('この操作は取り消せません。')).toBeVisible();
  await page.getByLabel('パスワード').fill(newPassword);
  await page.getByRole('button', { name: '退会する' }).click();
  await expect(page.getByText('内容を確認し、チェックを入れてください。')).toBeVisible();
  await page.getByLabel('上記の内容を確認し、退会します').check();
  await page.getByRole('button', { name: '退会する' }).click();
  await expect(page.getByRole('heading', { name: '退会手続きが完了しました' })).toBeVisible();
  await expect(page.getByRole('banner').getByRole('link', { name: 'ログイン' })).toBeVisible();
  await signIn(page, newEmail, newPassword);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'メールアドレスまたはパスワードが正しくありません。',
  );
});

test('without JavaScript the forms still work: errors come back beside the fields, typed values kept', async ({
  browser,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/login');
  await submitLogin(page, 'nobody-nojs@example.jp', 'some-password');
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    'メールアドレスまたはパスワードが正しくありません。',
  );
  await expect(passwordLoginForm(page).getByLabel('メールアドレス')).toHaveValue(
    'nobody-nojs@example.jp',
  );
  await expect(page.getByLabel('パスワード', { exact: true })).toHaveValue('');
  // The message is shown once: a reload shows a clean form.
  await page.reload();
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  await context.close();
});

test('too many sign-in attempts on one account answer 429 with a Japanese message', async ({
  request,
}) => {
  const target = `locked-${stamp}@example.jp`;
  let last = await request.post('/api/account/sign-in', {
    headers: { accept: 'application/json' },
    form: { email: target, password: 'guess-0' },
  });
  for (let i = 1; i <= 10; i++) {
    last = await request.post('/api/account/sign-in', {
      headers: { accept: 'application/json' },
      form: { email: target, password: `guess-${i}` },
    });
  }
  expect(last.status()).toBe(429);
  expect(Number(last.headers()['retry-after'])).toBeGreaterThan(0);
  expect(((await last.json()) as { message: string }).message).toMatch(/分ほど待ってから/);
});

test('account pages need a session; staff pages answer 404 to others', async ({ page }) => {
  await page.goto('/account/edit');
  await expect(page).toHaveURL(/\/login\?next=%2Faccount%2Fedit/);
  const admin = await page.goto('/admin/mail');
  expect(admin?.status()).toBe(404);
  // The header's sign-in link comes back to the page it was followed from.
  await page.goto('/posts/no-such-post');
  await expect(page.getByRole('banner').getByRole('link', { name: 'ログイン' })).toHaveAttribute(
    'href',
    '/login?next=%2Fposts%2Fno-such-post',
  );
});

test('axe-core finds no violations on the account screens at 360 and 1280 px, errors shown', async ({
  page,
}) => {
  // Each screen once, checked at both widths in turn (resized, not reloaded).
  const check = () => expectAccessibleAtWidths(page, page.url(), { height: 800 });
  await resizeTo(page, CHECK_WIDTHS[0], 800);
  await page.goto('/sign-up');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('表示名を入力してください。')).toBeVisible();
  await check();
  await page.goto('/login');
  await check();
  const address = `axe-${stamp}@example.jp`;
  await admin(
    'create-user',
    '--email',
    address,
    '--password',
    'kaze-no-oto-4',
    '--name',
    '確認 用',
  );
  await signIn(page, address, 'kaze-no-oto-4');
  await expect(accountButton(page, '確認 用')).toBeVisible();
  await accountButton(page, '確認 用').click();
  await check();
  for (const path of ['/account/edit', '/account/change-email', '/account/delete']) {
    await page.goto(path);
    await check();
  }
});

test('staff read the kept mails at /admin/mail; a mail with a link is for admins only', async ({
  page,
}) => {
  // Found by an attack run on 2026-11-24: an editor asked for an admin's password reset, read the
  // link here and signed in as the admin.
  const chief = `chief-${stamp}@example.jp`;
  await admin('create-user', '--email', chief, '--password', 'henshu-no-heya-7', '--role', 'admin');
  const editor = `editor-${stamp}@example.jp`;
  await admin(
    'create-user',
    '--email',
    editor,
    '--password',
    'henshu-no-heya-6',
    '--role',
    'editor',
  );
  await page.goto('/account/forgot-password');
  await page.getByRole('main').getByLabel('メールアドレス').fill(chief);
  await page.getByRole('button', { name: '再設定のリンクを送る' }).click();
  await expect(page.getByText(/パスワード再設定のご案内を送信しました/)).toBeVisible();

  await signIn(page, editor, 'henshu-no-heya-6');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/admin/mail');
  await expect(page.getByRole('heading', { name: 'メール送信箱' })).toBeVisible();
  const row = () =>
    page.getByRole('row').filter({ hasText: chief }).filter({ hasText: 'reset-password' }).first();
  await expect(row()).toContainText('本文は管理者のみ');
  await expect(row().getByRole('link')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('token=');

  // The admin reads it (the read is audited).
  await page.context().clearCookies();
  await signIn(page, chief, 'henshu-no-heya-7');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/admin/mail');
  await row().getByRole('link').click();
  await expect(page.locator('pre')).toContainText('/account/reset-password?token=');
});
