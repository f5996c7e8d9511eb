import { expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { roleStatePath, signInAs } from './support/roles';

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

  await signInAs(page, 'member');
  expect((await page.goto(`/posts/${id}/preview`))?.status()).toBe(403);
  await page.context().clearCookies();

  await signInAs(page, 'editor');
  await page.goto(`/posts/${id}/preview`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('編集部だけが見る下書き');
  await expect(page.getByRole('region', { name: 'プレビューモード' })).toBeVisible();
});

test('outside preview a draft is on no list and in no search result, and its page is not found', async ({
  page,
  request,
  playwright,
  baseURL,
}) => {
  const stamp = Date.now();
  // One word, made up, in the titles of the drafts and of a published twin post.
  const word = `shitagaki${stamp}`;
  const key = (
    await admin('create-api-key', '--name', 'e2e drafts', '--permissions', 'GET,POST')
  ).at(-1)!;
  const create = async (endpoint: string, data: object, draft: boolean) => {
    const res = await request.post(`/api/v1/${endpoint}${draft ? '?status=draft' : ''}`, {
      headers: { 'X-MICROCMS-API-KEY': key },
      data,
    });
    expect(res.status(), `${endpoint}: ${await res.text()}`).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const text = `<p>${word} の本文です。下書きのあいだは誰にも見えないはずの段落です。</p>`;
  /** A public-preview post with the word in its title, description and body. */
  const post = async (title: string, draft: boolean) => ({
    title,
    id: await create(
      'posts',
      { title, description: word, body: text, isPublicPreview: true },
      draft,
    ),
  });
  const draftPost = await post(`下書きの記事 ${word}`, true);
  const drafts = {
    audios: await create('audios', { title: `下書きの音声 ${word}`, transcript: text }, true),
    movies: await create('movies', { title: `下書きの動画 ${word}`, description: word }, true),
    connect: await create('connect', { title: `下書きのコネクト ${word}`, body: text }, true),
  };
  // The control: a published post with the same word is found everywhere the draft is not.
  const published = await post(`公開した記事 ${word}`, false);

  // The lists and the search, in the browser.
  await page.goto('/');
  await expect(page.getByRole('link', { name: published.title }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: draftPost.title })).toHaveCount(0);
  await page.goto('/posts');
  await expect(page.getByRole('link', { name: published.title })).toBeVisible();
  await expect(page.getByRole('link', { name: draftPost.title })).toHaveCount(0);
  await page.goto(`/search?q=${word}`);
  await expect(
    page.getByRole('main').getByRole('article').getByRole('heading', { level: 2 }),
  ).toHaveText([published.title]);

  // Every draft's page is not found, for an anonymous visitor and for a paid member.
  const paid = await playwright.request.newContext({
    baseURL,
    storageState: roleStatePath('paid'),
  });
  const pages = [
    `/posts/${draftPost.id}`,
    ...Object.entries(drafts).map(([endpoint, id]) => `/${endpoint}/${id}`),
  ];
  for (const api of [request, paid]) {
    const who = api === paid ? 'paid' : 'anonymous';
    for (const path of pages) {
      const res = await api.get(path);
      expect(res.status(), `${who} ${path}`).toBe(404);
      expect(await res.text(), `${who} ${path}`).not.toContain(word);
    }
    // Nor is any of them in the HTML or the RSC payload of the lists and the search.
    for (const path of ['/', '/posts', '/movies', '/connect', `/search?q=${word}`]) {
      for (const rsc of [false, true]) {
        const res = await api.get(path, { headers: rsc ? { RSC: '1' } : {} });
        expect(res.status(), `${who} ${path}`).toBe(200);
        const body = await res.text();
        for (const id of [draftPost.id, ...Object.values(drafts)])
          expect(body, `${who} ${rsc ? 'RSC ' : ''}${path} must not name ${id}`).not.toContain(id);
        for (const kind of ['記事', '音声', '動画', 'コネクト'])
          expect(body).not.toContain(`下書きの${kind} ${word}`);
        if (path !== '/movies' && path !== '/connect') expect(body).toContain(published.id);
      }
    }
  }
  await paid.dispose();
});
