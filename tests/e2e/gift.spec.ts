import { expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { ROLES, pageAs } from './support/roles';

// Gift articles (docs/decisions/037-gift-articles.md): a paid reader makes a gift link in the
// browser (the 「ギフト」 link, the gift page's allowance and form); a signed-out reader opens the
// post in full under the giver's banner, and the answer is never cached: a request without the
// token, after the gifted one, still gets the paywall, as does a tampered token.

const stamp = Date.now();
const MARK = `GIFTMARK${stamp}`;

test('a paid reader gifts a post; anyone with the link reads it, nobody else', async ({
  browser,
  request,
}) => {
  const key = (await admin('create-api-key', '--name', 'e2e gift', '--permissions', 'GET,POST')).at(
    -1,
  )!;
  const created = await request.post('/api/v1/posts', {
    headers: { 'X-MICROCMS-API-KEY': key },
    data: {
      title: `ギフトの記事 ${stamp}`,
      body: `<p>導入の段落です。</p><hr data-members-divider><p>${MARK} 会員だけの本文です。</p>`,
      isPublicPreview: false,
    },
  });
  expect(created.status()).toBe(201);
  const id = ((await created.json()) as { id: string }).id;

  const giver = await pageAs(browser, 'paid');
  await giver.goto(`/posts/${id}`);
  await giver.getByRole('link', { name: 'ギフト', exact: true }).click();
  await expect(giver.getByText('今月あと5本贈れます')).toBeVisible();
  await giver.getByRole('button', { name: 'ギフトリンクを作る' }).click();
  await expect(giver.getByRole('status').first()).toContainText('今月あと4本贈れます');
  const url = (await giver.locator('#new-gift-url').textContent())!.trim();
  const link = new URL(url);
  expect(link.pathname).toBe(`/posts/${id}`);
  const gifted = `${link.pathname}${link.search}`;

  // Signed out, the link opens the whole post: private, no-store, noindex, not from the cache.
  const answer = await request.get(gifted);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['cache-control']).toBe('private, no-store');
  expect(answer.headers()['x-page-cache']).toBeUndefined();
  const html = await answer.text();
  expect(html).toContain(MARK);
  expect(html).toMatch(/<meta name="robots" content="noindex/);

  // The same post without the token, after the gifted answer, twice (the second may be a hit).
  for (let i = 0; i < 2; i++)
    expect(await (await request.get(`/posts/${id}`)).text()).not.toContain(MARK);
  // An RSC request with the token is not cached either; a tampered token opens nothing.
  const rsc = await request.get(`${gifted}&_rsc=e2e`, { headers: { rsc: '1' } });
  expect(rsc.headers()['cache-control']).toBe('private, no-store');
  const token = link.searchParams.get('gift')!;
  const tampered = `/posts/${id}?gift=${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
  const refused = await (await request.get(tampered)).text();
  expect(refused).not.toContain(MARK);
  expect(refused).toContain('このギフトリンクではお読みいただけません');

  // The recipient's page, in a browser without an account.
  const recipient = await (await browser.newContext()).newPage();
  await recipient.goto(gifted);
  await expect(
    recipient.getByText(`${ROLES.paid.name}さんからのギフト記事です（あと7日）`),
  ).toBeVisible();
  await expect(recipient.getByText(MARK)).toBeVisible();
  await expect(recipient.getByRole('link', { name: '無料で会員登録する' })).toBeVisible();
  await expectNoAxeViolations(recipient, 'gifted post');
});
