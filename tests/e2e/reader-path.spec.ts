import { type APIRequestContext, type Locator, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { latestLink } from './support/mail';
import { signInByApi } from './support/sign-in';

// The reader's path from a paywall to the full article (docs/decisions/039-reader-path.md), on a
// phone (360 px): every page the tab shows is a screen, the confirmation mail one more; at most 6
// for a new visitor (with JavaScript and without), 4 for a signed-in free reader, and nothing
// typed twice.

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 360, height: 740 } });

const stamp = Date.now();
const password = 'hoshi-no-michi-77';
const PAYWALL = 'この記事は有料会員限定です';
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
  // The page the tab shows. Reading the mail does not leave it, so a late same-document event for
  // it (the framework's replaceState when it hydrates, later on a loaded machine) is no new screen.
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
    /** The mail is a screen of the path too. */
    readMail: (kind: string) => screens.push(`mail:${kind}`),
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

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('a new visitor: paywall → confirm (account) → sent → mail → card → the article, in 6 screens', async ({
      page,
      request,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const postId = await paidOnlyPost(request);
      const article = `/posts/${postId}`;
      const email = `path-new-${javaScriptEnabled ? 'js' : 'nojs'}-${stamp}@example.jp`;
      const path = walk(page);

      await page.goto(article);
      const paywall = page.getByRole('complementary').filter({
        has: page.getByRole('heading', { name: PAYWALL }),
      });
      await expect(paywall).toBeVisible();
      await shot(page, `${javaScriptEnabled ? '' : 'nojs-'}1-paywall`);
      // The paywall offers the plans itself, each named with its price.
      await paywall.getByRole('link', { name: /月額プランで申し込む.*（税込）／月/ }).click();
      await expect(page).toHaveURL(
        `${baseURL}/service-plans/confirm?plan=monthly&next=${encodeURIComponent(article)}`,
      );

      // The final confirmation screen takes the account: typed once, posted once.
      await path.type(page.getByLabel('表示名'), 'displayName', '道 ゆく人');
      await path.type(page.getByRole('main').getByLabel('メールアドレス'), 'email', email);
      await path.type(page.getByLabel('パスワード', { exact: true }), 'password', password);
      await expect(page.getByLabel('パスワード（確認）')).toHaveCount(0); // asked once
      await page.getByLabel(/に同意します/).check();
      await shot(page, `${javaScriptEnabled ? '' : 'nojs-'}2-confirm`);
      await page.getByRole('button', { name: 'アカウントを作成して申し込む' }).click();

      await expect(page.getByRole('heading', { name: '確認メールを送信しました' })).toBeVisible();
      // It names the address (kept out of the URL) and can send the mail again.
      await expect(page.getByRole('main').getByText(email)).toBeVisible();
      expect(page.url()).not.toContain(encodeURIComponent(email));
      await expect(page.getByRole('button', { name: '確認メールを再送する' })).toBeVisible();
      await shot(page, `${javaScriptEnabled ? '' : 'nojs-'}3-sent`);

      // The mail's link signs the reader in and goes straight to the card form.
      const link = await latestLink(email, 'verify-email', baseURL!);
      path.readMail('verify-email');
      await page.goto(link);
      await expect(page).toHaveURL(/\/billing-sandbox\/checkout\/cs_/);
      await payWith(page, path);

      // The success page applies the plan and sends the reader back to the article, in full.
      await expect(page).toHaveURL(`${baseURL}${article}`, { timeout: 30_000 });
      await expect(page.getByRole('heading', { name: PAYWALL })).toHaveCount(0);
      await shot(page, `${javaScriptEnabled ? '' : 'nojs-'}4-article`);

      console.log(
        `[reader-path] new visitor (JavaScript ${javaScriptEnabled ? 'on' : 'off'}): ${path.screens.length} screens: ${path.screens.join(' → ')}`,
      );
      expect(path.screens.length).toBeLessThanOrEqual(6);
      expect(new Set(path.typed.map((entry) => entry.split(': ')[1])).size).toBe(path.typed.length);
    });
  });
}

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
  await expect(page).toHaveURL(`${baseURL}${article}`, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: PAYWALL })).toHaveCount(0);

  console.log(
    `[reader-path] free reader: ${path.screens.length} screens: ${path.screens.join(' → ')}`,
  );
  expect(path.screens.length).toBeLessThanOrEqual(4);
  expect(new Set(path.typed.map((entry) => entry.split(': ')[1])).size).toBe(path.typed.length);
});
