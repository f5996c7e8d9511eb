import { expect, test } from '@playwright/test';
import { admin } from './support/admin';

// The production server answers the content API ahead of the framework (src/server/features/front):
// the same shapes and errors as through the route handlers.
test('the content API answers with a key, refuses without one, and a write reaches the pages', async ({
  request,
}) => {
  const key = (await admin('create-api-key', '--name', 'e2e', '--permissions', 'GET,PATCH')).at(
    -1,
  )!;
  const headers = { 'X-MICROCMS-API-KEY': key };

  const list = await request.get('/api/v1/posts?limit=2&fields=id,title', { headers });
  expect(list.status()).toBe(200);
  const body = (await list.json()) as { contents: { id: string }[]; totalCount: number };
  expect(body.contents).toHaveLength(2);
  expect(body.totalCount).toBeGreaterThanOrEqual(60);

  expect((await request.get('/api/v1/posts')).status()).toBe(401);
  const bad = await request.get('/api/v1/posts?limit=abc', { headers });
  expect(bad.status()).toBe(400);
  expect(await bad.json()).toEqual({ message: "Invalid 'limit' value." });
  expect((await request.get('/api/v1/nothing', { headers })).status()).toBe(404);

  // A write through the API renews the site's cached pages that show it: the post page shows it
  // as soon as its render is done (the previous version meanwhile; decision 044).
  const id = body.contents[0]!.id;
  const title = `e2e で書き換えた題名 ${Date.now()}`;
  const patched = await request.patch(`/api/v1/posts/${id}`, { headers, data: { title } });
  expect(patched.status()).toBe(200);
  await expect
    .poll(async () => (await request.get(`/posts/${id}`)).text(), { timeout: 5_000 })
    .toContain(title);
});

test('a path with broken percent-encoding answers 400, not 500', async ({ request }) => {
  for (const path of ['/api/v1/%E0%A4%A', '/posts/%E0%A4%A']) {
    const res = await request.get(path);
    expect(res.status()).toBe(400);
    expect(await res.text()).toBe('URLの形式が正しくありません。');
  }
});
