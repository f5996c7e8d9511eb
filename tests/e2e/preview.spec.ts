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
