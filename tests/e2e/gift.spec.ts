import { type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { expectNoAxeViolations } from './support/axe';
import { latestLink } from './support/mail';
import { ROLES, pageAs } from './support/roles';
import { submitLogin } from './support/sign-in';

// Gift articles (docs/decisions/037-gift-articles.md): a paid reader makes a gift link in the
// browser (the 「ギフト」 link, the gift page's allowance and form); a signed-out reader opens the
// post in full under the giver's banner, and the answer is never cached: a request without the
// token, after the gifted one, still gets the paywall, as does a tampered token. A recipient who
// signs up or signs in from the gifted post comes back to it, still under the gift; the token goes
// nowhere else, and the end of the post invites the recipient to subscribe.

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
/** The gifted post's id, a text beyond its lead, and its link's path (`/posts/{id}?gift=TOKEN`). */
let id: string;
let MARK: string;
let gifted: string;

/** The text of the body's last paragraph: beyond any lead. */
function lastParagraph(html: string): string {
  const paragraphs = [...html.matchAll(/<p>([^<]{20,})<\/p>/g)].map((m) => m[1]!);
  return paragraphs.at(-1)!.slice(0, 30);
}

test('a paid reader gifts a post; anyone with the link reads it, nobody else', async ({
  browser,
  request,
}) => {
  const key = (await admin('create-api-key', '--name', 'e2e gift', '--permissions', 'GET')).at(-1)!;
  // A members' post outside the free plan's 3 newest (the list's own query, the newest created
  // first): only a paid plan, or the gift, opens it, also for a recipient who signs up.
  const list = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent('isPublicPreview[not_equals]true')}&limit=5&fields=id,body`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  expect(list.status()).toBe(200);
  const post = ((await list.json()) as { contents: { id: string; body: string }[] }).contents[4]!;
  id = post.id;
  MARK = lastParagraph(post.body);

  const giver = await pageAs(browser, 'paid');
  await giver.goto(`/posts/${id}`);
  await giver.getByRole('link', { name: 'ギフト', exact: true }).click();
  await expect(giver.getByText('今月あと5本贈れます')).toBeVisible();
  await giver.getByRole('button', { name: 'ギフトリンクを作る' }).click();
  await expect(giver.getByRole('status').first()).toContainText('今月あと4本贈れます');
  const url = (await giver.locator('#new-gift-url').textContent())!.trim();
  const link = new URL(url);
  expect(link.pathname).toBe(`/posts/${id}`);
  gifted = `${link.pathname}${link.search}`;

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

test('a recipient who signs up or signs in comes back to the gift; the token goes nowhere else', async ({
  browser,
  baseURL,
}) => {
  // Two readers, each through a form and a page or two more: more than the default on a slow machine.
  test.setTimeout(90_000);
  const post = `/posts/${id}`;
  const token = new URL(gifted, baseURL).searchParams.get('gift')!;
  const recipient = await (await browser.newContext()).newPage();
  await recipient.goto(gifted);
  const banner = recipient.getByRole('complementary', { name: /さんからのギフト記事です/ });

  // The token leaves the page only in the links that bring the reader back to this gift.
  const hrefs = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  expect((await hrefs(recipient, `a[href*="${token}"]`)).sort()).toEqual([
    `/login?next=${encodeURIComponent(gifted)}`,
    `/sign-up?next=${encodeURIComponent(gifted)}`,
  ]);

  // The end of the gifted read: the plans with their price (tax included), the trial, and the
  // plans page, all leading back to the post (without the token: a paid reader needs none, and
  // the checkout's return address is the billing provider's to see).
  const invitation = recipient.getByRole('complementary', {
    name: '有料会員になると、すべての記事が読めます',
  });
  await expect(invitation.getByText('最初の14日間は無料')).toBeVisible();
  const plans = invitation.getByRole('link', { name: /で申し込む/ });
  await expect(plans.first()).toContainText(/（税込）／(月|年)/);
  for (const href of await plans.evaluateAll((links) =>
    links.map((a) => a.getAttribute('href')!),
  )) {
    const url = new URL(href, baseURL);
    expect(url.pathname).toBe('/service-plans/confirm');
    expect(url.searchParams.get('next')).toBe(post);
  }
  await expect(invitation.getByRole('link', { name: '料金プランを見る' })).toHaveAttribute(
    'href',
    `/service-plans?next=${encodeURIComponent(post)}`,
  );

  // Signing up: the confirmation mail's link signs the new reader in and returns to the gift.
  const email = `gift-recipient-${stamp}@example.jp`;
  await banner.getByRole('link', { name: '無料で会員登録する' }).click();
  await recipient.getByLabel('表示名').fill('受取 はるか');
  await recipient.getByRole('main').getByLabel('メールアドレス').fill(email);
  await recipient.getByLabel('パスワード', { exact: true }).fill('Yuki-no-Hashi-2026');
  await recipient.getByLabel(/に同意します/).check();
  await recipient.getByRole('button', { name: '登録する' }).click();
  await expect(recipient.getByRole('heading', { name: '確認メールを送信しました' })).toBeVisible();
  await recipient.goto(await latestLink(email, 'verify-email', baseURL!));
  await expect(recipient).toHaveURL(`${baseURL}${gifted}`);
  await expect(recipient.getByText(MARK)).toBeVisible();
  await expect(banner.getByRole('link', { name: '有料プランを見る' })).toHaveAttribute(
    'href',
    `/service-plans?next=${encodeURIComponent(post)}`,
  );
  // Signed in, the gift still opens only its post: the same post without the token is closed.
  await recipient.goto(post);
  await expect(
    recipient.getByRole('heading', { name: 'この記事は有料会員限定です' }),
  ).toBeVisible();
  await expect(recipient.getByText(MARK)).toHaveCount(0);

  // Signing in with an account made before: back to the gift too.
  const member = `gift-member-${stamp}@example.jp`;
  await admin('create-user', '--email', member, '--password', 'Kaze-no-Oto-2026');
  const returning = await (await browser.newContext()).newPage();
  await returning.goto(gifted);
  await returning
    .getByRole('complementary', { name: /さんからのギフト記事です/ })
    .getByRole('link', { name: 'ログイン' })
    .click();
  await submitLogin(returning, member, 'Kaze-no-Oto-2026');
  await expect(returning).toHaveURL(`${baseURL}${gifted}`);
  await expect(returning.getByText(MARK)).toBeVisible();
});
