import { type APIRequestContext, expect, test } from '@playwright/test';
import { admin } from './support/admin';

// The page cache purges only what a change showed (docs/decisions/044-purge-what-a-change-showed.md):
// an edit renews the pages that showed the item and leaves the others cached; a change that
// narrows access is never served stale, not even to a reader who asks while it is made.
// The posts are this spec's own, dated long ago so that no list or free plan of another spec
// takes them in.

let headers: Record<string, string>;
test.beforeAll(async () => {
  const key = (
    await admin('create-api-key', '--name', 'e2e-cache-purge', '--permissions', 'GET,POST,PATCH')
  ).at(-1)!;
  headers = { 'X-MICROCMS-API-KEY': key };
});

async function createPost(request: APIRequestContext, fields: Record<string, unknown>) {
  const created = await request.post('/api/v1/posts', {
    headers,
    data: { publishedAt: '2001-04-01T00:00:00.000Z', ...fields },
  });
  expect(created.status()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

/** Reads a page twice as an anonymous reader; the second answer must come from the cache. */
async function warm(request: APIRequestContext, path: string) {
  await request.get(path);
  const again = await request.get(path);
  expect(again.headers()['x-page-cache'], path).toBe('hit');
}

test('an edit renews the pages that showed the item and leaves the others cached', async ({
  request,
}) => {
  const stamp = Date.now();
  const id = await createPost(request, {
    title: `キャッシュの確認 ${stamp}`,
    description: `編集前の概要 ${stamp}`,
    body: '<p>本文</p>',
  });
  await warm(request, `/posts/${id}`);
  await warm(request, '/about');

  const description = `編集後の概要 ${stamp}`;
  const patched = await request.patch(`/api/v1/posts/${id}`, { headers, data: { description } });
  expect(patched.status()).toBe(200);

  // The first reader after the edit gets the previous version while the server renews the page
  // for the next ones (within a second on an idle machine; CI's machine is busier), or a fresh
  // render when another spec's publication meanwhile dropped it (every post page lists posts):
  // never the old page as if nothing had changed.
  const first = await request.get(`/posts/${id}`);
  expect(first.headers()['x-page-cache']).not.toBe('hit');
  await expect
    .poll(async () => (await request.get(`/posts/${id}`)).text(), { timeout: 5_000 })
    .toContain(description);
  const about = await request.get('/about');
  expect(about.headers()['x-page-cache']).toBe('hit'); // it never showed the post
});

test('a post moved behind the paywall is never served whole again, even mid-change', async ({
  request,
}) => {
  const secret = `会員だけの続き ${Date.now()}`;
  const id = await createPost(request, {
    title: '有料に切り替える記事',
    isPublicPreview: true,
    body: `<p>誰でも読める冒頭です。</p><hr data-members-divider /><p>${secret}</p>`,
  });
  const path = `/posts/${id}`;
  await warm(request, path);
  expect(await (await request.get(path)).text()).toContain(secret);

  // Readers keep asking while the change is made; every answer that starts after the change has
  // returned must be cut at the divider.
  let changedAt = Number.POSITIVE_INFINITY;
  const reads: Promise<{ startedAt: number; whole: boolean }>[] = [];
  const reading = (async () => {
    while (reads.length < 200 && performance.now() < changedAt + 1_000) {
      const startedAt = performance.now();
      reads.push(
        request
          .get(path)
          .then(async (r) => ({ startedAt, whole: (await r.text()).includes(secret) })),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  const patched = await request.patch(`/api/v1/posts/${id}`, {
    headers,
    data: { isPublicPreview: false },
  });
  expect(patched.status()).toBe(200);
  changedAt = performance.now();
  await reading;
  const after = (await Promise.all(reads)).filter((read) => read.startedAt > changedAt);
  expect(after.length).toBeGreaterThan(0);
  expect(after.filter((read) => read.whole)).toEqual([]);
});
