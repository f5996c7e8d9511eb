import { expect, test } from '@playwright/test';
import { admin } from './support/admin';

test('a draft is previewed with its draft key, and the exit button ends preview mode', async ({
  page,
  request,
}) => {
  const key = (
    await admin('create-api-key', '--name', 'e2e preview', '--permissions', 'GET,POST')
  ).at(-1)!;
  const created = await request.post('/api/v1/posts?status=draft', {
    headers: { 'X-MICROCMS-API-KEY': key },
    data: {
      title: 'まだ公開していない記事',
      body: '<p>下書きの本文です。</p><p>続きも読めます。</p><p>三段落目。</p>',
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };

  // Not visible to the public.
  expect((await page.goto(`/posts/${id}`))?.status()).toBe(404);
  // A wrong key is refused and turns nothing on.
  expect((await page.goto(`/posts/${id}/preview?draftKey=wrong`))?.status()).toBe(403);
  await expect(page.getByText('プレビューできません')).toBeVisible();

  const previewUrl = new URL(
    (await admin('preview-url', '--endpoint', 'posts', '--id', id)).at(-1)!,
  );
  await page.goto(`${previewUrl.pathname}${previewUrl.search}`);
  await expect(page).toHaveURL(new RegExp(`/posts/${id}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('まだ公開していない記事');
  await expect(page.getByText('三段落目。')).toBeVisible(); // the whole draft, not only the lead
  const banner = page.getByRole('region', { name: 'プレビューモード' });
  await expect(banner).toBeVisible();
  await expect(banner.getByText('プレビューモード', { exact: true })).toBeVisible();

  // The other preview URL form works too.
  await page.goto(`/posts/preview/${id}${previewUrl.search}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('まだ公開していない記事');

  await banner.getByRole('button', { name: 'プレビューモードを終了' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('region', { name: 'プレビューモード' })).toHaveCount(0);
  expect((await page.goto(`/posts/${id}`))?.status()).toBe(404);
});

test('GET /api/exit-preview answers OK', async ({ request }) => {
  const response = await request.get('/api/exit-preview');
  expect(response.ok()).toBe(true);
});

test('staff preview a draft without its key; a member cannot', async ({ page, request }) => {
  const key = (
    await admin('create-api-key', '--name', 'e2e staff', '--permissions', 'GET,POST')
  ).at(-1)!;
  const created = await request.post('/api/v1/posts?status=draft', {
    headers: { 'X-MICROCMS-API-KEY': key },
    data: { title: '編集部だけが見る下書き', body: '<p>編集中。</p>' },
  });
  const { id } = (await created.json()) as { id: string };
  const stamp = Date.now();
  const signIn = async (email: string, password: string) => {
    await page.goto('/login');
    await page.getByLabel('メールアドレス').fill(email);
    await page.getByLabel('パスワード', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'ログイン' }).click();
    await expect(page).toHaveURL(/\/$/);
  };

  await admin(
    'create-user',
    '--email',
    `member-${stamp}@example.jp`,
    '--password',
    'yuki-no-hi-11',
  );
  await signIn(`member-${stamp}@example.jp`, 'yuki-no-hi-11');
  expect((await page.goto(`/posts/${id}/preview`))?.status()).toBe(403);
  await page.context().clearCookies();

  await admin('create-user', '--email', `editor-${stamp}@example.jp`, '--password', 'ame-no-hi-12');
  await admin('set-role', '--email', `editor-${stamp}@example.jp`, '--role', 'editor');
  await signIn(`editor-${stamp}@example.jp`, 'ame-no-hi-12');
  await page.goto(`/posts/${id}/preview`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('編集部だけが見る下書き');
  await expect(page.getByRole('region', { name: 'プレビューモード' })).toBeVisible();
});
