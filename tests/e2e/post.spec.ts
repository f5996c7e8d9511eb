import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectNoAxeViolations } from './support/axe';
import { admin } from './support/admin';
import { signInByApi } from './support/sign-in';

type Post = { id: string; title: string; body: string };

async function readPosts(request: APIRequestContext, filters: string): Promise<Post[]> {
  const key = (await admin('create-api-key', '--name', 'e2e post', '--permissions', 'GET')).at(-1)!;
  const response = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent(filters)}&limit=2&depth=0`,
    {
      headers: { 'X-MICROCMS-API-KEY': key },
    },
  );
  expect(response.status()).toBe(200);
  return ((await response.json()) as { contents: Post[] }).contents;
}

/** The text of the body's last paragraph: beyond any lead. */
function lastParagraph(html: string): string {
  const paragraphs = [...html.matchAll(/<p>([^<]{20,})<\/p>/g)].map((m) => m[1]!);
  return paragraphs.at(-1)!.slice(0, 30);
}

test("a members' post shows its lead and a call to sign up, and never sends the rest", async ({
  page,
  request,
}) => {
  const [post] = await readPosts(request, 'isPublicPreview[not_equals]true');
  const hidden = lastParagraph(post!.body);
  const response = await page.goto(`/posts/${post!.id}`);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(post!.title);
  await expect(page.getByRole('heading', { name: 'この記事は会員限定です' })).toBeVisible();
  await expect(page.getByRole('link', { name: '無料で会員登録' })).toHaveAttribute(
    'href',
    `/sign-up?next=${encodeURIComponent(`/posts/${post!.id}`)}`,
  );
  // Neither the HTML nor the RSC payload carries the gated part.
  expect(await response!.text()).not.toContain(hidden);
  const rsc = await request.get(`/posts/${post!.id}`, { headers: { RSC: '1' } });
  expect(await rsc.text()).not.toContain(hidden);
  await expect(page).toHaveTitle(`${post!.title} | AXIS Membership`);
});

test('a public-preview post is readable in full by everyone', async ({ page, request }) => {
  const [post] = await readPosts(request, 'isPublicPreview[equals]true');
  await page.goto(`/posts/${post!.id}`);
  await expect(page.getByText(lastParagraph(post!.body))).toBeVisible();
  await expect(page.getByRole('heading', { name: 'この記事は会員限定です' })).toHaveCount(0);
  await expectNoAxeViolations(page);
});

test('an unknown post answers the Japanese 404 page', async ({ page }) => {
  expect((await page.goto('/posts/no-such-post'))?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ページが見つかりません');
});

test('a signed-in free member reads the 3 newest members’ posts; a complimentary plan opens every post', async ({
  page,
  request,
}) => {
  const key = (await admin('create-api-key', '--name', 'e2e paywall', '--permissions', 'GET')).at(
    -1,
  )!;
  const list = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent('isPublicPreview[not_equals]true')}&limit=5&depth=0&fields=id,body&orders=-publishedAt`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  const members = ((await list.json()) as { contents: Post[] }).contents;
  const freePlan = members[0]!;
  const older = members[4]!;
  const email = `paywall-${Date.now()}@example.jp`;
  await admin('create-user', '--email', email, '--password', 'kami-hikoki-13');
  await signInByApi(page.context(), email, 'kami-hikoki-13');

  await page.goto(`/posts/${freePlan.id}`);
  await expect(page.getByText(lastParagraph(freePlan.body))).toBeVisible();
  const closed = await page.goto(`/posts/${older.id}`);
  expect(await closed!.text()).not.toContain(lastParagraph(older.body));
  await expect(
    page.getByText('有料プランに登録すると、すべての記事を全文お読みいただけます。'),
  ).toBeVisible();

  await admin('grant-plan', '--email', email, '--plan', 'monthly');
  await page.goto(`/posts/${older.id}`);
  await expect(page.getByText(lastParagraph(older.body))).toBeVisible();
  await expect(page.getByRole('heading', { name: 'この記事は会員限定です' })).toHaveCount(0);
});
