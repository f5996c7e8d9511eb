import { type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { latestLink } from './support/mail';
import { pageAs } from './support/roles';
import { E2E_SITE_URL } from './support/settings';

/**
 * Two paths a visitor takes into the membership, in Chromium at 360 px: the footer's
 * subscription by e-mail alone (confirmation mail → a free member who gets the newsletter, then
 * a letter's unsubscribe link without signing in), and an offer's link (the offered price on
 * the plans page and on the 特商法 confirmation screen).
 */

test.use({ viewport: { width: 360, height: 740 } });

const stamp = Date.now().toString(36);

/** The unsubscribe link of the newest newsletter letter to an address, from the outbox. */
async function unsubscribeLink(to: string, baseURL: string): Promise<string | null> {
  const lines = await admin('mail-outbox', '--to', to, '--full', '--limit', '5');
  const link = lines
    .join('\n')
    .match(/https?:\/\/\S+\/newsletter\/unsubscribe\?token=[\w.~-]+/)?.[0];
  return link ? link.replace(E2E_SITE_URL, baseURL) : null;
}

async function signedOut(page: Page) {
  await page.context().clearCookies();
}

test('a visitor subscribes from the footer, confirms, and unsubscribes from a letter', async ({
  page,
  baseURL,
}) => {
  const email = `footer-${stamp}@example.jp`;
  await page.goto('/posts');
  const form = page.getByRole('form', { name: 'ニュースレターを受け取る' }).last();
  await form.getByLabel('メールアドレス').fill(email);
  await form.getByRole('button', { name: 'メールで受け取る' }).click();
  await expect(page.getByText('確認メールを送信しました', { exact: false }).first()).toBeVisible();

  await page.goto(await latestLink(email, 'newsletter-confirm', baseURL!));
  await expect(
    page.getByRole('heading', { level: 1, name: 'ニュースレター登録の確認' }),
  ).toBeVisible();
  await page.getByRole('button', { name: '登録を完了する' }).click();
  await expect(page).toHaveURL(/\/newsletter\/welcome$/);
  await expect(
    page.getByText('無料会員として登録し、ニュースレターの配信を開始しました。'),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'お名前（表示名）を設定する' })).toBeVisible();

  // A letter to the free members carries the reader's signed unsubscribe link.
  await admin('newsletter-send', '--post', 'post-052', '--segment', 'free');
  await expect.poll(() => unsubscribeLink(email, baseURL!), { timeout: 30_000 }).not.toBeNull();
  const link = (await unsubscribeLink(email, baseURL!))!;
  await signedOut(page);
  await page.goto(link);
  await expect(
    page.getByRole('heading', { level: 1, name: 'ニュースレターの配信停止' }),
  ).toBeVisible();
  await page.getByRole('button', { name: '配信を停止する' }).click();
  await expect(page.getByRole('heading', { level: 1, name: '配信を停止しました' })).toBeVisible();
});

test('an offer made on /admin/offers shows its price on the plans page and the confirmation', async ({
  browser,
  page,
}) => {
  const code = `E2E-${stamp}`.toUpperCase();
  const staff = await pageAs(browser, 'admin');
  await staff.goto('/admin/offers');
  await staff.getByLabel('オファー名').fill('初月半額');
  await staff.getByLabel('割引の値').fill('50');
  await staff.getByLabel('コード').fill(code);
  await staff.getByRole('button', { name: 'オファーを作成する' }).click();
  await expect(staff.getByRole('heading', { name: '初月半額（有効）' }).first()).toBeVisible();
  await staff.close();

  await page.goto(`/service-plans?offer=${code}`);
  await expect(page.getByText(`クーポンコード「${code}」`).first()).toBeVisible();
  const price = /(初月|初年度) ¥[\d,]+（通常 ¥[\d,]+）/;
  const offered = (await page.getByText(price).allTextContents()).map((t) => price.exec(t)![0]);
  expect(offered.length).toBeGreaterThan(0);
  await page
    .getByRole('link', { name: /^申し込む/ })
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/service-plans/confirm\\?.*offer=${code}`));
  await expect(page.getByRole('heading', { level: 1, name: 'お申し込み内容の確認' })).toBeVisible();
  const shown = price.exec((await page.getByText(price).first().textContent()) ?? '')?.[0];
  expect(offered).toContain(shown);
});
