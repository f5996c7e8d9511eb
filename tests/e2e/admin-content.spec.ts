import { type Browser, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { expectScreensAccessible } from './support/axe';
import { signedInPage } from './support/sign-in';
import { openDocument } from './support/document';

/**
 * The content console (/admin/content, /admin/media, /admin/transfer) in Chromium: an editor
 * writes a post with a cover, the members' divider and an embed, previews it, schedules it and
 * sees it appear on the site by itself, edits it and restores an earlier version; two editors
 * on one item are told of the conflict; the editor works from the keyboard; nobody else gets
 * in; axe on every screen at 360 and 1280 px.
 */

const PASSWORD = 'Kumo-Sora-2026!';
const USERS = {
  editor: { email: 'console-editor@example.jp', name: '編集 一郎', role: 'editor' },
  editor2: { email: 'console-editor2@example.jp', name: '編集 二郎', role: 'editor' },
  admin: { email: 'console-admin@example.jp', name: '管理 花子', role: 'admin' },
  member: { email: 'console-member@example.jp', name: '会員 三郎', role: 'member' },
} as const;
type Who = keyof typeof USERS;

const signedIn = (browser: Browser, who: Who): Promise<Page> =>
  signedInPage(browser, USERS[who].email, PASSWORD);

/** The title field (its label carries the 必須 marker). */
const titleField = (page: Page) => page.getByRole('textbox', { name: /^タイトル/ });
const consoleNav = (page: Page) => page.getByRole('navigation', { name: '管理画面' });
const saveStatus = (page: Page) => page.getByRole('status').filter({ hasText: /保存/ }).first();

test.beforeAll(async () => {
  // Idempotent: a retry runs this again on the same server.
  const existing = (await admin('list-users', '--limit', '500')).join('\n');
  for (const who of Object.keys(USERS) as Who[]) {
    const { email, name, role } = USERS[who];
    if (existing.includes(email)) continue;
    await admin(
      'create-user',
      '--email',
      email,
      '--name',
      name,
      '--password',
      PASSWORD,
      '--role',
      role,
    );
  }
});

/** Posts this spec may have published: deleted after it, whatever happened, so the specs that
 * read the newest posts (post, calls-to-action) find the demo corpus as it was. */
const published: string[] = [];

test.afterAll(async ({ browser }) => {
  if (published.length === 0) return;
  const context = await browser.newContext();
  const signIn = await context.request.post('/api/account/sign-in', {
    headers: { accept: 'application/json' },
    form: { email: USERS.editor.email, password: PASSWORD },
  });
  expect(signIn.ok()).toBe(true);
  const origin = new URL(signIn.url()).origin;
  for (const id of published.splice(0)) {
    const answer = await context.request.delete(`/api/admin/content/posts/${id}`, {
      headers: { accept: 'application/json', origin },
      data: {},
    });
    expect([200, 404]).toContain(answer.status());
  }
  await context.close();
});

/**
 * The new item's id, once its first save has moved the address from …/new to …/{id} (the
 * editor does it with history.replaceState, after the server has answered).
 */
async function createdId(page: Page): Promise<string> {
  const created = /^\/admin\/content\/posts\/(?!new$)([a-z0-9]+)$/;
  await expect.poll(() => new URL(page.url()).pathname).toMatch(created);
  return created.exec(new URL(page.url()).pathname)![1]!;
}

/** Creates a draft post from the console and returns its id (the page is on its editor). */
async function newDraft(page: Page, title: string): Promise<string> {
  await page.goto('/admin/content/posts/new');
  await titleField(page).fill(title);
  await page.getByRole('button', { name: '下書きを保存' }).click();
  return createdId(page);
}

/**
 * A whole minute an hour ahead (the server's own 5-second rounds leave it alone), as a
 * datetime-local value in Japan time and as the instant it stands for.
 */
function anHourAheadInJapan(): { input: string; at: Date } {
  const at = new Date(Math.ceil((Date.now() + 3_600_000) / 60_000) * 60_000);
  const input = new Date(at.getTime() + 9 * 3_600_000).toISOString().slice(0, 16);
  return { input, at };
}

test('an editor writes, previews, schedules, sees it appear, edits and restores a post', async ({
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const page = await signedIn(browser, 'editor');
  const title = `予約公開の記事 ${Date.now()}`;

  await page.goto('/admin');
  await consoleNav(page).getByRole('link', { name: 'コンテンツ' }).click();
  await page.getByRole('main').getByRole('link', { name: /^記事/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: '記事' })).toBeVisible();
  await page.getByRole('link', { name: '新規作成' }).click();

  await titleField(page).fill(title);
  // The cover, from the media library.
  await page.getByRole('button', { name: /選択.*カバー画像/ }).click();
  const picker = page.getByRole('dialog', { name: '画像を選ぶ' });
  await picker.getByRole('list', { name: '画像の一覧' }).getByRole('button').first().click();
  await expect(picker).toBeHidden();
  await expect(page.getByText(/選択中：/).first()).toBeVisible();

  // The body: a lead, the members' divider, the members' part and an embed.
  await page.getByRole('textbox', { name: '本文' }).click();
  await page.keyboard.type('誰でも読めるリードの段落です。');
  const toolbar = page.getByRole('toolbar', { name: '書式' });
  await toolbar.getByRole('button', { name: '会員限定の区切り' }).click();
  await expect(page.getByRole('separator', { name: 'ここから会員限定' })).toBeVisible();
  await page.keyboard.type('ここからは会員だけが読める段落です。');
  await toolbar.getByRole('button', { name: '埋め込み' }).click();
  const embed = page.getByRole('dialog', { name: '埋め込みを挿入' });
  await embed
    .getByRole('textbox', { name: /^埋め込む URL/ })
    .fill('https://www.youtube.com/watch?v=aqz-KE-bpKQ');
  await embed.getByRole('button', { name: '埋め込む', exact: true }).click();
  await expect(embed).toBeHidden();

  await page.getByRole('button', { name: '下書きを保存' }).click();
  const id = await createdId(page);
  published.push(id);
  await expect(saveStatus(page)).toContainText('保存しました');

  // Not on the site; the preview shows the draft.
  expect((await request.get(`/posts/${id}`)).status()).toBe(404);
  const [preview] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('link', { name: /プレビュー/ }).click(),
  ]);
  await expect(preview.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(preview.getByText('ここからは会員だけが読める段落です。')).toBeVisible();
  await expect(preview.getByRole('link', { name: 'YouTubeの動画を再生する' })).toBeVisible();
  await preview.close();

  // Scheduled: it appears by itself at that time (the scheduler's round run as of that time
  // through the admin command, instead of waiting for the clock).
  const { input, at } = anHourAheadInJapan();
  await page.getByLabel('予約公開', { exact: true }).fill(input);
  await page.getByRole('button', { name: '予約公開する' }).click();
  await expect(page.getByText('予約公開を設定しました。')).toBeVisible();
  expect((await request.get(`/posts/${id}`)).status()).toBe(404);
  await admin('run-scheduled', '--at', new Date(at.getTime() - 1000).toISOString());
  expect((await request.get(`/posts/${id}`)).status()).toBe(404);
  expect(await admin('run-scheduled', '--at', at.toISOString())).toEqual([
    `${at.toISOString()} までの予約公開を実行しました: 1 件を公開しました。`,
  ]);
  await expect.poll(async () => (await request.get(`/posts/${id}`)).status()).toBe(200);
  const anonymous = await (await browser.newContext()).newPage();
  await anonymous.goto(`/posts/${id}`);
  await expect(anonymous.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(anonymous.getByText('誰でも読めるリードの段落です。')).toBeVisible();
  // The members' part stays behind the paywall.
  await expect(anonymous.getByText('ここからは会員だけが読める段落です。')).toHaveCount(0);
  await anonymous.goto('/posts');
  await expect(anonymous.getByRole('link', { name: title }).first()).toBeVisible();

  // Edited and published again, then the scheduled version restored.
  await page.reload();
  await expect(page.getByText('公開中', { exact: true }).first()).toBeVisible();
  await titleField(page).fill(`${title}（改題）`);
  await page.getByRole('button', { name: '下書きを保存' }).click();
  await expect(saveStatus(page)).toContainText('保存しました');
  await page.getByRole('button', { name: '変更を公開する' }).click();
  await expect(page.getByText('公開しました。')).toBeVisible();
  // A reader may get the previous version while the page is renewed (decision 044): reload.
  await expect(async () => {
    await anonymous.goto(`/posts/${id}`);
    await expect(
      anonymous.getByRole('heading', { level: 1, name: `${title}（改題）` }),
    ).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 10_000 });

  await page.getByRole('link', { name: '変更履歴' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '変更履歴' })).toBeVisible();
  await expect(page.getByText('システム (予約公開)').first()).toBeVisible();
  await page.getByRole('button', { name: /この版に戻す: .*公開（システム \(予約公開\)）/ }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/content/posts/${id}$`));
  await expect(page.getByText(/選んだ版の内容を下書きに戻しました/)).toBeVisible();
  await expect(titleField(page)).toHaveValue(title);
  await page.getByRole('button', { name: '変更を公開する' }).click();
  await expect(page.getByText('公開しました。')).toBeVisible();
  await anonymous.goto(`/posts/${id}`);
  await expect(anonymous.getByRole('heading', { level: 1, name: title })).toBeVisible();

  // Deleted from the editor (afterAll makes sure of it if this test stops earlier).
  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('button', { name: 'この記事を削除' }).click();
  await expect(page).toHaveURL(/\/admin\/content\/posts(\?.*)?$/);
  expect((await request.get(`/posts/${id}`)).status()).toBe(404);
  await anonymous.context().close();
  await page.context().close();
});

test('two editors on one item: the later save is told, and nothing is overwritten', async ({
  browser,
}) => {
  const first = await signedIn(browser, 'editor');
  const id = await newDraft(first, '共同編集の記事');
  const second = await signedIn(browser, 'editor2');
  await second.goto(`/admin/content/posts/${id}`);

  await titleField(first).fill('一郎が直した見出し');
  await first.getByRole('button', { name: '下書きを保存' }).click();
  await expect(saveStatus(first)).toContainText('保存しました');

  await titleField(second).fill('二郎が直した見出し');
  await second.getByRole('button', { name: '下書きを保存' }).click();
  const alert = second.getByRole('alert').filter({ hasText: '編集 一郎' });
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('button', { name: '最新の内容を読み込む' })).toBeVisible();
  await expect(alert.getByRole('button', { name: '自分の変更で上書きする' })).toBeVisible();
  // The first editor's save stands.
  await first.reload();
  await expect(titleField(first)).toHaveValue('一郎が直した見出し');
  // Choosing to reload shows it to the second editor too.
  second.once('dialog', (dialog) => void dialog.accept());
  await alert.getByRole('button', { name: '最新の内容を読み込む' }).click();
  await expect(titleField(second)).toHaveValue('一郎が直した見出し');
  await first.context().close();
  await second.context().close();
});

test('the editor works from the keyboard alone', async ({ browser }) => {
  const page = await signedIn(browser, 'editor');
  await page.goto('/admin/content/posts/new');
  const title = titleField(page);
  for (let i = 0; i < 80 && !(await title.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(title).toBeFocused();
  await page.keyboard.type('キーボードだけで書いた記事');
  const body = page.getByRole('textbox', { name: '本文' });
  for (let i = 0; i < 20 && !(await body.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(body).toBeFocused();
  await page.keyboard.type('本文もキーボードで入力します。');
  await page.keyboard.press('Control+b');
  await page.keyboard.type('太字');
  await page.keyboard.press('Escape'); // leaves the editing area
  await expect(body).not.toBeFocused();
  await page.keyboard.press('Control+s');
  await createdId(page);
  await expect(saveStatus(page)).toContainText('保存しました');
  await page.reload();
  await expect(page.getByRole('textbox', { name: '本文' }).locator('strong')).toHaveText('太字');
  await page.context().close();
});

test('a visitor and a member get 404 for every console page and request; an editor for the admin-only ones', async ({
  browser,
  baseURL,
}) => {
  const editor = await signedIn(browser, 'editor');
  const id = await newDraft(editor, '守られた下書き');
  const pages = [
    '/admin/content',
    '/admin/content/posts',
    '/admin/content/posts/new',
    `/admin/content/posts/${id}`,
    `/admin/content/posts/${id}/history`,
    '/admin/content/about/-',
    '/admin/media',
    '/admin/transfer',
  ];
  const requests: [string, string, unknown?][] = [
    ['POST', '/api/admin/content/posts', { fields: { title: 'x' } }],
    ['PUT', `/api/admin/content/posts/${id}`, { fields: { title: 'x' }, baseUpdatedAt: null }],
    ['DELETE', `/api/admin/content/posts/${id}`, {}],
    ['POST', `/api/admin/content/posts/${id}/workflow`, { action: 'publish' }],
    ['POST', `/api/admin/content/posts/${id}/restore`, { version: 1 }],
    ['GET', '/api/admin/content/tags/lookup?q=a'],
    ['GET', '/api/admin/media'],
    ['GET', '/api/admin/transfer/export'],
    ['GET', '/api/admin/transfer/status'],
  ];
  const member = await signedIn(browser, 'member');
  const visitor = await (await browser.newContext()).newPage();
  for (const page of [visitor, member]) {
    for (const path of pages) expect((await openDocument(page, path)).status(), path).toBe(404);
    for (const [method, path, body] of requests) {
      const response = await page.request.fetch(path, {
        method,
        headers: { accept: 'application/json', origin: new URL(baseURL!).origin },
        ...(body === undefined ? {} : { data: body }),
      });
      expect(response.status(), `${method} ${path}`).toBe(404);
    }
  }
  // Nothing was written: the draft is as it was.
  await editor.reload();
  await expect(titleField(editor)).toHaveValue('守られた下書き');

  for (const path of ['/admin/transfer', '/admin/users', '/admin/api-keys'])
    expect((await editor.goto(path))?.status(), path).toBe(404);
  expect(
    (
      await editor.request.get('/api/admin/transfer/export', {
        headers: { accept: 'application/json' },
      })
    ).status(),
  ).toBe(404);
  await expect(consoleNav(editor).getByRole('link', { name: '取り込みと書き出し' })).toHaveCount(0);
  for (const page of [editor, member, visitor]) await page.context().close();
});

test('an admin downloads the export, and an import into a site with content is refused', async ({
  browser,
}) => {
  const page = await signedIn(browser, 'admin');
  await page.goto('/admin');
  await consoleNav(page).getByRole('link', { name: '取り込みと書き出し' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('button', { name: /書き出/ })
      .first()
      .click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^axis-content-\d{8}-\d{4}\.tar\.gz$/);
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  const bytes = readFileSync(path);
  expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b]); // gzip
  // This site has content: importing is refused, and the page says why before anyone tries.
  await expect(
    page.getByText(/この環境にはすでにコンテンツがあるため取り込めません/).first(),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'アーカイブを取り込む' })).toBeDisabled();
  await page.context().close();
});

test('every console screen passes axe at 360 and 1280 px, without sideways scroll', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const page = await signedIn(browser, 'admin');
  const id = await newDraft(page, '画面チェックの記事');
  await titleField(page).fill('画面チェックの記事（二版）');
  await page.getByRole('button', { name: '下書きを保存' }).click();
  await expect(saveStatus(page)).toContainText('保存しました');
  await page.goto('/admin/media');
  const mediaPage = await page
    .getByRole('main')
    .locator('a[href^="/admin/media/"]')
    .first()
    .getAttribute('href');
  const screens = [
    '/admin',
    '/admin/mail',
    '/admin/contact',
    '/admin/analytics',
    '/admin/audit',
    '/admin/content',
    '/admin/content/posts',
    '/admin/content/posts?status=draft&sort=title',
    '/admin/content/posts/new',
    `/admin/content/posts/${id}`,
    `/admin/content/posts/${id}/history`,
    '/admin/content/about/-',
    '/admin/media',
    mediaPage!,
    '/admin/transfer',
  ];
  // Every screen once: loaded at 360 px, then checked again at 1280 px without reloading. Ready
  // when the page has its heading, the header its account control (the auth state has loaded)
  // and any rich-text field its editor in place of the HTML stand-in.
  await expectScreensAccessible(page, screens, {
    ready: async (p) => {
      await expect(p.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(
        p.getByRole('banner').getByRole('button', { name: USERS.admin.name }),
      ).toBeVisible();
      await expect(p.getByText('エディターを準備しています')).toHaveCount(0);
    },
  });
  await page.context().close();
});
