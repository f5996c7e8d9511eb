import { type APIRequestContext, type Locator, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { expectAccessibleAtWidths } from './support/axe';
import { latestLink } from './support/mail';
import { passwordLoginForm, signInByApi } from './support/sign-in';

// The reader's path from a paywall to the full article (docs/decisions/039-reader-path.md), on a
// phone (360 × 740): every page the tab shows is a screen. A new visitor: 4 screens (with
// JavaScript and without), one field typed before the card (the e-mail address), the terms above
// the fold; a signed-in free reader: 4 as well. An address that has an account is never signed in
// by paying; its owner signs in and gets the plan and the article.

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 360, height: 740 } });

const stamp = Date.now();
const password = 'hoshi-no-michi-77';
const PAYWALL = 'この記事は有料会員限定です';
/** The one-time notice on the article once paid (the trial's end follows it). */
const STARTED =
  /メンバーシップ (月額|年額)プランが始まりました。無料期間は\d{4}年\d{1,2}月\d{1,2}日までです。/;
/** Where the walk leaves a few screenshots when asked (READER_PATH_SHOTS=/some/dir). */
const SHOTS = process.env.READER_PATH_SHOTS;

/** A members' post outside the free-plan list (the fifth newest members' post). */
async function paidOnlyPost(request: APIRequestContext): Promise<string> {
  const key = (await admin('create-api-key', '--name', 'e2e path', '--permissions', 'GET')).at(-1)!;
  const list = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent('isPublicPreview[not_equals]true')}&limit=5&depth=0&fields=id&orders=-publishedAt`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  return ((await list.json()) as { contents: { id: string }[] }).contents[4]!.id;
}

/**
 * Counts the screens: each page the tab shows (a full load or the framework's client-side
 * navigation; a redirect on the way is not one), and what the reader types, per field.
 */
function walk(page: Page) {
  const screens: string[] = [];
  const typed: string[] = [];
  // The page the tab shows: a late same-document event for it (the framework's replaceState when
  // it hydrates, later on a loaded machine) is no new screen.
  let shown = '';
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    const url = new URL(frame.url());
    const here = url.pathname + url.search;
    if (here === shown) return;
    shown = here;
    screens.push(here);
  });
  return {
    screens,
    typed,
    /** Types into a field; `typed` keeps what was typed, so a value typed twice shows. */
    type: async (field: Locator, name: string, value: string) => {
      typed.push(`${name}: ${value}`);
      await field.fill(value);
    },
  };
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

async function payWith(page: Page, path: ReturnType<typeof walk>) {
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await path.type(field('カード番号'), 'card-number', '4242 4242 4242 4242');
  await path.type(field('有効期限'), 'card-expiry', '12/40');
  await path.type(field('セキュリティコード'), 'card-cvc', '123');
  await path.type(field('カード名義'), 'card-name', 'TARO YAMADA');
  await page.getByRole('button', { name: '申し込む' }).click();
}

/** The paywall's button for the monthly plan, on to the confirmation screen. */
async function fromPaywall(page: Page, baseURL: string, article: string) {
  await page.goto(article);
  const paywall = page.getByRole('complementary').filter({
    has: page.getByRole('heading', { name: PAYWALL }),
  });
  await expect(paywall).toBeVisible();
  // The paywall offers the plans itself, each named with its price.
  await paywall.getByRole('link', { name: /月額プランで申し込む.*（税込）／月/ }).click();
  await expect(page).toHaveURL(
    `${baseURL}/service-plans/confirm?plan=monthly&next=${encodeURIComponent(article)}`,
  );
}

/** A visitor's confirmation screen: the address and the consent, then the card form. */
async function confirmAsVisitor(page: Page, path: ReturnType<typeof walk>, email: string) {
  // Only the address is typed here: no name, no password.
  await expect(page.getByRole('main').getByRole('textbox')).toHaveCount(1);
  await path.type(page.getByRole('main').getByLabel('メールアドレス'), 'email', email);
  await page.getByLabel(/に同意します/).check();
  await page.getByRole('button', { name: '同意してカード情報の入力へ' }).click();
  await expect(page).toHaveURL(/\/billing-sandbox\/checkout\/cs_/);
}

/** The article in full, with the one-time notice that the plan has started. */
async function expectArticleWithNotice(page: Page, url: string) {
  await expect(page).toHaveURL(url, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: PAYWALL })).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: STARTED })).toBeVisible();
}

/** What was typed before the card form. */
const beforeCard = (typed: string[]) =>
  typed.slice(
    0,
    Math.max(
      0,
      typed.findIndex((entry) => entry.startsWith('card-')),
    ),
  );

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('a new visitor: paywall → confirm (e-mail) → card → the article, in 4 screens', async ({
      page,
      request,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const postId = await paidOnlyPost(request);
      const article = `/posts/${postId}`;
      const email = `path-new-${javaScriptEnabled ? 'js' : 'nojs'}-${stamp}@example.jp`;
      const path = walk(page);

      await fromPaywall(page, baseURL!, article);
      await shot(page, `${javaScriptEnabled ? '' : 'nojs-'}1-confirm`);
      // The final confirmation terms, whole above the fold of a phone.
      const terms = page.getByRole('region', { name: 'お申し込み内容（要点）' });
      for (const term of ['価格（税込）', '無料期間', '自動更新', '解約'])
        await expect(terms.getByText(term, { exact: true })).toBeVisible();
      const box = (await terms.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(740);
      await confirmAsVisitor(page, path, email);
      await payWith(page, path);

      // Back on the article, in full, told once that the plan has started.
      await expectArticleWithNotice(page, `${baseURL}${article}`);
      await shot(page, `${javaScriptEnabled ? '' : 'nojs-'}2-article`);

      console.log(
        `[reader-path] new visitor (JavaScript ${javaScriptEnabled ? 'on' : 'off'}): ${path.screens.length} screens: ${path.screens.join(' → ')}`,
      );
      expect(path.screens.length).toBeLessThanOrEqual(4);
      expect(beforeCard(path.typed).length).toBeLessThanOrEqual(3);
      expect(new Set(path.typed.map((entry) => entry.split(': ')[1])).size).toBe(path.typed.length);

      // The notice is said once; the mail that confirms the address came after paying, and its
      // link signs in and returns to the article.
      await page.reload();
      await expect(page.getByRole('status').filter({ hasText: STARTED })).toHaveCount(0);
      await expect(page.getByRole('heading', { name: PAYWALL })).toHaveCount(0);
      if (javaScriptEnabled) {
        await page.context().clearCookies();
        await page.goto(await latestLink(email, 'sign-in-link', baseURL!));
        await expectArticleWithNotice(page, `${baseURL}${article}`);
      }
    });
  });
}

test('an address that has an account is not signed in by paying; its owner signs in and gets the plan', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const postId = await paidOnlyPost(request);
  const article = `/posts/${postId}`;
  const email = `path-owner-${stamp}@example.jp`;
  await admin('create-user', '--email', email, '--password', password, '--name', '持ち主 みち');
  const path = walk(page);

  // Someone who knows the address pays with it.
  await fromPaywall(page, baseURL!, article);
  await expectAccessibleAtWidths(page, "a visitor's confirmation screen");
  await confirmAsVisitor(page, path, email);
  await payWith(page, path);
  await expect(page.getByRole('heading', { name: 'お支払いが完了しました' })).toBeVisible({
    timeout: 30_000,
  });
  // Signed in to nothing: the address is masked, the account's pages ask to sign in.
  await expect(page.getByRole('main')).not.toContainText(email);
  const cookies = await page.context().cookies();
  expect(cookies.some((cookie) => cookie.name.includes('session_token'))).toBe(false);
  const account = await page.request.get('/account', { maxRedirects: 0 });
  expect(account.headers().location).toMatch(/^\/login\?next=/);
  await expectAccessibleAtWidths(page, 'the paid sign-in screen');

  // The owner signs in there, and lands on the article with the plan.
  const form = passwordLoginForm(page);
  await form.getByLabel('メールアドレス').fill(email);
  await form.getByLabel('パスワード', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'ログインしてプランを有効にする' }).click();
  await expectArticleWithNotice(page, `${baseURL}${article}`);
});

test('a signed-in free reader: paywall → confirm → card → the article, in 4 screens', async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const postId = await paidOnlyPost(request);
  const article = `/posts/${postId}`;
  const email = `path-member-${stamp}@example.jp`;
  await admin('create-user', '--email', email, '--password', password, '--name', '会員 みち');
  await signInByApi(page.context(), email, password);
  const path = walk(page);

  await page.goto(article);
  await page.getByRole('link', { name: /年額プランで申し込む.*（税込）／年/ }).click();
  await expect(page).toHaveURL(/\/service-plans\/confirm\?plan=yearly&next=/);
  await page.getByRole('button', { name: /確認して申し込む/ }).click();
  await expect(page).toHaveURL(/\/billing-sandbox\/checkout\/cs_/);
  await payWith(page, path);
  await expectArticleWithNotice(page, `${baseURL}${article}`);

  console.log(
    `[reader-path] free reader: ${path.screens.length} screens: ${path.screens.join(' → ')}`,
  );
  expect(path.screens.length).toBeLessThanOrEqual(4);
  expect(new Set(path.typed.map((entry) => entry.split(': ')[1])).size).toBe(path.typed.length);
});
