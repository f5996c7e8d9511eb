import { type Locator, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { signInAs } from './support/roles';
import { expectNoAxeViolations } from './support/axe';

// Calls to action that fit the reader and the item
// (docs/decisions/009-calls-to-action-and-operator.md): the home hero's buttons per audience, the
// paywall's one primary step (a free account where it opens the item, else the plans), ログイン for
// signed-out readers, the free-plan note, the 「無料公開」 mark, the
// /connect lead per audience and the operator on the 特定商取引法 page.

test.describe.configure({ mode: 'serial' });

type Post = { id: string; title: string; body: string; category?: { id: string } };

// The demo items this spec reads, one of each kind, looked up in beforeAll (not hard-coded).
let preview: Post;
let freePlan: Post;
let older: Post;
let movieId: string;
/** The content API's read key, for looking up what a list shows at the moment it is read. */
let apiKey: string;

/** The text of the body's last paragraph: beyond any lead. */
function lastParagraph(html: string): string {
  const paragraphs = [...html.matchAll(/<p>([^<]{20,})<\/p>/g)].map((m) => m[1]!);
  return paragraphs.at(-1)!.slice(0, 30);
}

const paywall = (page: Page) =>
  page.getByRole('complementary').filter({
    has: page.getByRole('heading', { level: 2, name: /会員限定です/ }),
  });

test.beforeAll(async ({ request }) => {
  const key = (await admin('create-api-key', '--name', 'e2e cta', '--permissions', 'GET')).at(-1)!;
  apiKey = key;
  const get = async <T>(path: string): Promise<T[]> => {
    const res = await request.get(path, { headers: { 'X-MICROCMS-API-KEY': key } });
    expect(res.status(), path).toBe(200);
    return ((await res.json()) as { contents: T[] }).contents;
  };
  const filter = (f: string) => encodeURIComponent(f);
  // The free-plan list's own query (SPEC §7: limit 3, no order, so the newest created first):
  // its first 3 are the list, the fifth is safely outside it.
  const members = await get<Post>(
    `/api/v1/posts?filters=${filter('isPublicPreview[not_equals]true')}&limit=5&fields=id,title,body`,
  );
  freePlan = members[0]!;
  older = members[4]!;
  // A preview post with a category (the list check below reads its category's list).
  preview = (
    await get<Post>(
      `/api/v1/posts?filters=${filter('isPublicPreview[equals]true[and]category[exists]')}&limit=1&fields=id,title,body,category`,
    )
  )[0]!;
  movieId = (
    await get<{ id: string }>(
      `/api/v1/movies?filters=${filter('isPublicPreview[not_equals]true')}&limit=1&fields=id`,
    )
  )[0]!.id;
});

/**
 * Each plan of a paywall is a button, at 1280 and at 360 px: one box (not inline text broken
 * around its lines) at least 44 px tall and 240 wide, inside the screen, and the one primary
 * drawn unlike the others.
 */
async function expectPlanButtons(page: Page, paywall: Locator) {
  const size = page.viewportSize()!;
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    const boxes = await paywall.getByRole('link', { name: /で申し込む/ }).evaluateAll((links) =>
      links.map((link) => {
        const box = link.getBoundingClientRect();
        const style = getComputedStyle(link);
        return {
          display: style.display,
          boxes: link.getClientRects().length,
          width: box.width,
          height: box.height,
          right: box.right,
          look: `${style.backgroundColor} ${style.color}`,
        };
      }),
    );
    expect(boxes.length, `plans at ${width} px`).toBeGreaterThanOrEqual(2);
    for (const box of boxes) {
      expect(box.display, `at ${width} px`).toMatch(/^(inline-)?(flex|block|grid)$/);
      expect(box.boxes, `at ${width} px`).toBe(1);
      expect(box.height, `at ${width} px`).toBeGreaterThanOrEqual(44);
      expect(box.width, `at ${width} px`).toBeGreaterThanOrEqual(240);
      expect(box.right, `at ${width} px`).toBeLessThanOrEqual(width);
    }
    expect(new Set(boxes.map((box) => box.look)).size, `at ${width} px`).toBe(2);
  }
  await page.setViewportSize(size);
}

/** The hero: the section around the page's one h1. */
const hero = (page: Page) =>
  page.locator('section', { has: page.getByRole('heading', { level: 1 }) });

test('an anonymous visitor: the hero invites to join, and each paywall names what opens the item', async ({
  page,
}) => {
  await page.goto('/');
  const top = hero(page);
  await expect(top.getByRole('link', { name: '無料で会員登録', exact: true })).toHaveAttribute(
    'href',
    '/sign-up',
  );
  await expect(top.getByRole('link', { name: '料金プランを見る', exact: true })).toHaveAttribute(
    'href',
    '/service-plans',
  );

  // A public-preview post: the whole text, the 「無料公開」 mark, no paywall.
  await page.goto(`/posts/${preview.id}`);
  await expect(
    page.locator('main article header').getByText('無料公開', { exact: true }),
  ).toBeVisible();
  await expect(page.getByText(lastParagraph(preview.body))).toBeVisible();
  await expect(paywall(page)).toHaveCount(0);

  // A free-plan post: a free account opens it, so that is the one button; ログイン comes back.
  await page.goto(`/posts/${freePlan.id}`);
  const open = paywall(page);
  await expect(open.getByRole('heading', { name: 'この記事は会員限定です' })).toBeVisible();
  // Both come back to the post: after signing in, or after verifying a new account.
  await expect(open.getByRole('link', { name: '無料で会員登録' })).toHaveAttribute(
    'href',
    `/sign-up?next=${encodeURIComponent(`/posts/${freePlan.id}`)}`,
  );
  await expect(open.getByRole('link', { name: 'ログイン' })).toHaveAttribute(
    'href',
    `/login?next=${encodeURIComponent(`/posts/${freePlan.id}`)}`,
  );
  await expect(open.getByRole('link', { name: /プランを見る/ })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // Any other members' post: only a paid plan opens it, so the plans, never a free account.
  await page.goto(`/posts/${older.id}`);
  const closed = paywall(page);
  await expect(closed.getByRole('heading', { name: 'この記事は有料会員限定です' })).toBeVisible();
  await expect(closed.getByRole('link', { name: '料金プランを見る' })).toHaveAttribute(
    'href',
    `/service-plans?next=${encodeURIComponent(`/posts/${older.id}`)}`,
  );
  await expect(closed.getByRole('link', { name: 'ログイン' })).toHaveAttribute(
    'href',
    `/login?next=${encodeURIComponent(`/posts/${older.id}`)}`,
  );
  await expect(closed.getByRole('link', { name: '無料で会員登録' })).toHaveCount(0);
  await expect(closed.getByText(/（税込）／月/)).toBeVisible();
  await expectPlanButtons(page, closed);
  // A visitor's new account has the trial: said beside the plans.
  await expect(closed.getByText('最初の14日間は無料', { exact: true })).toBeVisible();

  // Movies are for paid members: the plans again.
  await page.goto(`/movies/${movieId}`);
  await expect(paywall(page).getByRole('link', { name: '料金プランを見る' })).toBeVisible();
  await expect(paywall(page).getByRole('link', { name: '無料で会員登録' })).toHaveCount(0);

  // /connect: a way in, since its pages are for members.
  await page.goto('/connect');
  await expect(page.getByRole('main').getByRole('link', { name: '無料の会員登録' })).toBeVisible();

  // The list shows the same mark as the page: on its category's list, the newest public preview
  // there, looked up as the list is read (other specs add and remove posts meanwhile).
  const category = preview.category!.id;
  await expect(async () => {
    const res = await page.request.get(
      `/api/v1/posts?filters=${encodeURIComponent(`isPublicPreview[equals]true[and]category[equals]${category}`)}&orders=-publishedAt&limit=1&fields=title`,
      { headers: { 'X-MICROCMS-API-KEY': apiKey } },
    );
    const newest = ((await res.json()) as { contents: { title: string }[] }).contents[0]!;
    await page.goto(`/posts?category=${category}`);
    await expect(
      page
        .getByRole('article')
        .filter({ has: page.getByRole('heading', { name: newest.title, exact: true }) })
        .getByText('無料公開', { exact: true }),
    ).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
});

test('a free member: the hero offers the paid plans, free-plan posts say why they are open', async ({
  page,
}) => {
  await signInAs(page, 'member');
  await page.goto('/');
  const top = hero(page);
  await expect(top.getByRole('link', { name: '有料プランを見る', exact: true })).toHaveAttribute(
    'href',
    '/service-plans',
  );
  await expect(top.getByRole('link', { name: '無料で会員登録' })).toHaveCount(0);

  await page.goto(`/posts/${freePlan.id}`);
  await expect(
    page.getByText(/無料会員の方もお読みいただける最新の会員限定記事 3 本/),
  ).toBeVisible();
  await expect(page.getByText(lastParagraph(freePlan.body))).toBeVisible();
  await expect(paywall(page)).toHaveCount(0);

  await page.goto(`/posts/${older.id}`);
  const closed = paywall(page);
  await expect(closed.getByRole('heading', { name: 'この記事は有料会員限定です' })).toBeVisible();
  await expect(closed.getByRole('link', { name: '有料プランを見る' })).toHaveAttribute(
    'href',
    `/service-plans?next=${encodeURIComponent(`/posts/${older.id}`)}`,
  );
  // The page is every free member's (docs/decisions/007-pages-per-audience.md), and only those
  // who never had a plan have the trial: said as the condition it is.
  await expect(
    closed.getByText('初めて有料プランをお申し込みの方は、最初の14日間は無料', { exact: true }),
  ).toBeVisible();
  // Signed in already: neither ログイン nor a free account is offered.
  await expect(closed.getByRole('link', { name: 'ログイン' })).toHaveCount(0);
  await expect(closed.getByRole('link', { name: '無料で会員登録' })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // /connect does not ask a member to sign in.
  await page.goto('/connect');
  await expect(page.getByRole('main').getByRole('link', { name: 'ログイン' })).toHaveCount(0);
  await expect(page.getByRole('main').getByText(/各ページでご覧いただけます/)).toBeVisible();
});

test('a paid member: the hero leads to reading, and every post is open without notes', async ({
  page,
}) => {
  await signInAs(page, 'paid');
  await page.goto('/');
  const top = hero(page);
  await expect(top.getByRole('link', { name: '新着記事を読む', exact: true })).toHaveAttribute(
    'href',
    '/posts',
  );
  await expect(top.getByRole('link', { name: /プランを見る|会員登録/ })).toHaveCount(0);

  await page.goto(`/posts/${older.id}`);
  await expect(page.getByText(lastParagraph(older.body))).toBeVisible();
  await expect(paywall(page)).toHaveCount(0);
  // The free-plan note is for free members: a paid member reads every post anyway.
  await page.goto(`/posts/${freePlan.id}`);
  await expect(page.getByText(/無料会員の方もお読みいただける/)).toHaveCount(0);
});

test('the 特定商取引法 page names the operator, never a placeholder', async ({ page }) => {
  await page.goto('/specified-commercial-transactions');
  // The e2e server runs on the embedded database: demo values, said to be demo values.
  await expect(page.getByRole('row', { name: /販売業者/ })).toContainText('サンプル出版株式会社');
  await expect(page.getByRole('row', { name: /運営統括責任者/ })).toContainText('見本 太郎');
  await expect(page.getByRole('row', { name: /電話番号/ })).toContainText('03-0000-0000');
  await expect(page.getByRole('note')).toContainText('デモ用の表示です');
  await expect(page.getByText('請求があった場合には遅滞なく開示します。')).toHaveCount(0);
});
