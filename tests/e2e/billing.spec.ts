import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { signIn, signInByApi } from './support/sign-in';
import { CHECK_WIDTHS, expectAccessibleAtWidths, resizeTo } from './support/axe';
import { layoutShiftsOf } from './support/layout-shift';
import { latestLink } from './support/mail';

// The paid life of a reader on the built-in billing sandbox
// (docs/decisions/008-billing-sandbox.md): plans → final confirmation → the sandbox's hosted
// checkout → success → members' posts in full → portal → cancel at period end → the clock moved
// past the period → access gone; a declined card; a failed renewal; a renewal waiting for 3-D
// Secure (the mail, the notice in the page as sent, no layout shift, the way back from the
// authentication page); no second trial; axe on every billing screen at 360 and 1280 px.

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const password = 'kaki-no-tane-42';
const PAYWALL = 'この記事は有料会員限定です';

async function newReader(name: string): Promise<string> {
  const email = `${name}-${stamp}@example.jp`;
  await admin('create-user', '--email', email, '--password', password, '--name', name);
  return email;
}

/** A members' post outside the free-plan list (the fifth newest members' post). */
async function paidOnlyPost(request: APIRequestContext): Promise<string> {
  const key = (await admin('create-api-key', '--name', 'e2e billing', '--permissions', 'GET')).at(
    -1,
  )!;
  const list = await request.get(
    `/api/v1/posts?filters=${encodeURIComponent('isPublicPreview[not_equals]true')}&limit=5&depth=0&fields=id&orders=-publishedAt`,
    { headers: { 'X-MICROCMS-API-KEY': key } },
  );
  return ((await list.json()) as { contents: { id: string }[] }).contents[4]!.id;
}

/** From /service-plans to the sandbox's hosted checkout page for a plan. */
async function goToCheckout(page: Page, planName: RegExp) {
  await page.goto('/service-plans');
  await page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name: planName }) })
    .getByRole('link', { name: 'このプランを選ぶ' })
    .click();
  await expect(page).toHaveURL(/\/service-plans\/confirm\?plan=/);
  await page.getByRole('button', { name: /確認して申し込む/ }).click();
  await expect(page).toHaveURL(/\/billing-sandbox\/checkout\/cs_/);
  await expect(page.getByText(/テスト環境/).first()).toBeVisible();
}

async function payWith(page: Page, number: string) {
  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await field('カード番号').fill(number);
  await field('有効期限').fill('12/40');
  await field('セキュリティコード').fill('123');
  await field('カード名義').fill('TARO YAMADA');
  await page.getByRole('button', { name: '申し込む' }).click();
}

/** Moves the reader's sandbox clock on (the server then delivers the events it made). */
async function advanceDays(email: string, days: number) {
  await admin('billing-advance', '--email', email, '--days', String(days));
}

test('subscribe with 4242 → read in full → cancel at period end → past the period, access is gone', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const postId = await paidOnlyPost(request);
  const email = await newReader('subscriber');
  await signInByApi(page.context(), email, password);

  await page.goto(`/posts/${postId}`);
  await expect(page.getByRole('heading', { name: PAYWALL })).toBeVisible();

  await goToCheckout(page, /月額/);
  await payWith(page, '4242 4242 4242 4242');
  await expect(page).toHaveURL(/\/service-plans\/checkout-success\?session_id=cs_/);
  await expect(page.getByRole('heading', { name: 'お申し込みが完了しました' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText(/月額プラン/).first()).toBeVisible();

  await page.goto(`/posts/${postId}`);
  await expect(page.getByRole('heading', { name: PAYWALL })).toHaveCount(0);

  // The portal: cancel at period end, then back on the site it is said plainly.
  await page.goto('/service-plans');
  await page.getByRole('button', { name: 'プランの管理' }).first().click();
  await expect(page).toHaveURL(/\/billing-sandbox\/portal\/bps_/);
  await page.getByRole('link', { name: /解約/ }).first().click();
  await page.getByRole('button', { name: '解約する' }).click();
  await expect(page.getByRole('status')).toContainText(/解約/);
  await page.getByRole('link', { name: 'サイトに戻る' }).click();
  await expect(page).toHaveURL(/\/service-plans$/);
  await expect(page.getByText(/解約予定/)).toBeVisible({ timeout: 15_000 });

  // Past the end of the period (the 14-day trial of a first-time reader) the plan ends and
  // the post closes again.
  await advanceDays(email, 20);
  await expect(async () => {
    await page.goto(`/posts/${postId}`);
    await expect(page.getByRole('heading', { name: PAYWALL })).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 20_000 });

  // A reader who had a plan is not offered a trial again.
  await page.goto('/service-plans');
  await expect(page.getByText(/日間無料/)).toHaveCount(0);
});

test('a declined card leaves no subscription', async ({ page }) => {
  const email = await newReader('declined');
  await signInByApi(page.context(), email, password);
  await goToCheckout(page, /年額/);
  await payWith(page, '4000 0000 0000 0002');
  await expect(page.getByRole('alert').first()).toContainText('カードが拒否されました');
  await page.goto('/service-plans');
  await expect(page.getByText('ご利用中のプラン')).toHaveCount(0);
  const status = await admin('billing-status', '--email', email);
  expect(status.join('\n')).toContain('subscriptions: 0');
});

test('a failed renewal gives past_due, the notice, and the way to fix the card', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = await newReader('renewal');
  await signInByApi(page.context(), email, password);
  await goToCheckout(page, /月額/);
  await expect(page.getByText(/日間無料/).first()).toBeVisible(); // a first-time reader's trial
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'お申し込みが完了しました' })).toBeVisible({
    timeout: 30_000,
  });
  // The trial's end is the first charge (it goes through); then the card starts failing
  // (4000 0000 0000 0341, whose every charge is declined) and the renewal after it fails.
  await advanceDays(email, 15);
  await admin('billing-card-fails', '--email', email);
  await advanceDays(email, 31);
  await expect(async () => {
    await page.goto('/service-plans');
    await expect(page.getByRole('main').getByRole('alert')).toContainText('カード', {
      timeout: 1000,
    });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByRole('button', { name: 'カード情報を更新する' })).toBeVisible();

  // The trial's end was paid: its receipt, with the tax in it.
  await page.goto('/account/receipts');
  await page.getByRole('link', { name: '領収書を表示' }).first().click();
  await expect(page.getByText(/¥1,100/).first()).toBeVisible();
  await expect(page.getByText(/¥100/).first()).toBeVisible();
  // Addressed to the reader's company for expenses, by the seller's legal name.
  await page.getByRole('textbox', { name: '宛名' }).fill('株式会社デザイン 経理部');
  await page.getByRole('combobox', { name: '敬称' }).selectOption('御中');
  await page.getByRole('button', { name: '宛名を反映' }).click();
  await expect(page.locator('p', { hasText: '株式会社デザイン 経理部 御中' })).toBeVisible();
  await expect(page.getByText('発行者').locator('..')).toContainText('サンプル出版株式会社');

  await page.goto('/');
  // The banner says what is owed and when the card is tried again.
  await expect(
    page.getByText(
      /^カードでのお支払い（¥[\d,]+）ができませんでした。\d{4}年\d+月\d+日に自動で再度決済します。/,
    ),
  ).toBeVisible();
});

test('a renewal waiting for 3-D Secure: one mail, the notice in the page as sent, no layout shift, and back to the site', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const postId = await paidOnlyPost(page.request);
  const email = await newReader('three-ds');
  await signInByApi(page.context(), email, password);
  // A first-time reader's trial: the card (4000 0027 6000 3184, which asks for authentication
  // on every charge) is first charged when the trial ends, without the reader: it waits.
  await goToCheckout(page, /月額/);
  await payWith(page, '4000 0027 6000 3184');
  await expect(page.getByRole('heading', { name: 'お申し込みが完了しました' })).toBeVisible({
    timeout: 30_000,
  });
  await advanceDays(email, 15);

  // The mail, once, in Japanese, with the way to the authentication.
  const KIND = 'billing-authentication-required';
  let link = '';
  await expect(async () => {
    link = await latestLink(email, KIND, baseURL!);
  }).toPass({ timeout: 20_000 });
  const mails = await admin('mail-outbox', '--to', email, '--full', '--limit', '20');
  expect(mails.filter((line) => line.includes(`  ${KIND}  `))).toHaveLength(1);
  expect(mails.join('\n')).toContain('本人認証（3Dセキュア）');

  // The notice is in the post's HTML as the server sends it, not added after it has loaded.
  const NOTICE = /本人認証（3Dセキュア）が必要です/;
  const sent = await (await page.request.get(`/posts/${postId}`)).text();
  expect(sent).toMatch(NOTICE);

  // Nothing moves once the page is there: the notice, the account control (CLS 0).
  const account = (p: Page) => p.getByRole('banner').getByRole('button', { name: /three-ds/ });
  for (const width of [1280, 360]) {
    await page.setViewportSize({ width, height: 800 });
    const post = await layoutShiftsOf(page, `/posts/${postId}`, (p) => [
      account(p),
      p.getByText(NOTICE),
    ]);
    const plans = await layoutShiftsOf(page, '/service-plans', (p) => [account(p)]);
    console.log(`CLS at ${width}px: post ${post.total}, plans ${plans.total}`);
    expect(post, `the post at ${width}px`).toMatchObject({ total: 0 });
    expect(plans, `the plans page at ${width}px`).toMatchObject({ total: 0 });
  }

  // The mail's link: the account page, whose notice leads to the authentication page, which
  // leads back to where the reader came from.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(link);
  await expect(page).toHaveURL(/\/account$/);
  await page.getByRole('link', { name: '本人認証を行う' }).first().click();
  await expect(page.getByRole('heading', { name: '3Dセキュア認証（テスト）' })).toBeVisible();
  await page.getByRole('button', { name: '認証する' }).click();
  await expect(page.getByRole('heading', { name: 'お支払いは完了しています' })).toBeVisible();
  await page.getByRole('link', { name: 'サイトに戻る' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(async () => {
    await page.reload();
    await expect(page.getByText(NOTICE)).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
});

test('every billing screen passes axe at 360 and 1280 px, without sideways scroll', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // Each screen once, checked at both widths in turn (resized, not reloaded).
  const check = (where: string) => expectAccessibleAtWidths(page, where);
  await resizeTo(page, CHECK_WIDTHS[0]);
  await page.goto('/service-plans');
  await check('/service-plans (visitor)');
  const email = await newReader('axe');
  await signInByApi(page.context(), email, password);
  await page.goto('/service-plans');
  await check('/service-plans (reader)');
  await page.goto('/service-plans/confirm?plan=yearly');
  await check('/service-plans/confirm');
  await page.getByRole('button', { name: /確認して申し込む/ }).click();
  await expect(page).toHaveURL(/\/billing-sandbox\/checkout\//);
  await check('the sandbox checkout');
  await payWith(page, '4242 4242 4242 4242');
  await expect(page.getByRole('heading', { name: 'お申し込みが完了しました' })).toBeVisible({
    timeout: 30_000,
  });
  await check('the success page');
  await page.goto('/service-plans');
  await check('/service-plans (subscriber)');
  await page.getByRole('button', { name: 'プランの管理' }).first().click();
  await expect(page).toHaveURL(/\/billing-sandbox\/portal\//);
  await check('the sandbox portal');
  await page.goto('/account/receipts');
  await check('/account/receipts');
});

test('the portal opens only for the signed-in owner of the customer', async ({ page, request }) => {
  const victim = (await admin('billing-status', '--email', `subscriber-${stamp}@example.jp`))
    .find((line) => line.startsWith('customer '))!
    .split(' ')[1]!;
  expect(victim).toMatch(/^cus_/);
  const post = (customerId: unknown) =>
    page.request.post('/api/create-customer-portal', {
      data: { customerId },
      headers: { origin: new URL(page.url() || 'http://127.0.0.1').origin },
    });

  // Anonymous: no session, no portal.
  const anonymous = await request.post('/api/create-customer-portal', {
    data: { customerId: victim },
  });
  expect(anonymous.status()).toBe(401);

  const email = await newReader('intruder');
  await signIn(page, email, password);
  for (const customerId of [victim, ` ${victim}`, victim.toUpperCase(), 'cus_forged']) {
    const answer = await post(customerId);
    expect(answer.status()).toBe(403);
    expect(JSON.stringify(await answer.json())).not.toContain('billing-sandbox/portal');
  }
  expect((await post({ $ne: null })).status()).toBe(400);
});

test('buy one article by card: paywall → final confirmation → hosted payment → the article in full, listed in the account; then a tip', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const postId = await paidOnlyPost(request);
  const key = (
    await admin('create-api-key', '--name', 'e2e purchase', '--permissions', 'GET,PATCH')
  ).at(-1)!;
  const patched = await request.patch(`/api/v1/posts/${postId}`, {
    headers: { 'X-MICROCMS-API-KEY': key },
    data: { price: 300 },
  });
  expect(patched.status()).toBe(200);
  const email = await newReader('buyer');
  await signInByApi(page.context(), email, password);

  // A price narrows nothing (docs/decisions/044-purge-what-a-change-showed.md): the free
  // members' page cached by an earlier test is served as it was once more while it renews.
  const offer = page.getByRole('link', { name: 'この記事を購入（¥300）' });
  await expect(async () => {
    await page.goto(`/posts/${postId}`);
    await expect(page.getByRole('heading', { name: PAYWALL })).toBeVisible();
    await expect(offer).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await offer.click();
  await expect(page).toHaveURL(new RegExp(`/purchase/post/${postId}$`));
  await expect(page.getByText(/購入後のキャンセルはできません/).first()).toBeVisible();
  await page.getByRole('radio', { name: /カード/ }).check();
  await page.getByRole('button', { name: /確認して購入する/ }).click();
  await expect(page).toHaveURL(/\/billing-sandbox\/checkout\/cs_/);

  const field = (name: string) => page.getByRole('textbox', { name, exact: true });
  await field('カード番号').fill('4242 4242 4242 4242');
  await field('有効期限').fill('12/40');
  await field('セキュリティコード').fill('123');
  await field('カード名義').fill('TARO YAMADA');
  await page.getByRole('button', { name: /カードで .*300.* を支払う/ }).click();
  // The status page reads the ledger until the provider's event has arrived, then the post.
  await expect(page).toHaveURL(new RegExp(`/posts/${postId}`), { timeout: 20_000 });
  await expect(page.getByRole('heading', { name: PAYWALL })).toHaveCount(0);

  // A tip from the block at the post's end: confirmation, hosted payment, thanks; no access.
  const tip = page.getByRole('region', { name: 'チップで応援する' });
  await tip.getByRole('radio', { name: '¥500' }).check();
  await tip.getByRole('textbox', { name: /メッセージ/ }).fill('応援しています');
  await tip.getByRole('button', { name: '内容を確認する' }).click();
  await expect(page).toHaveURL(new RegExp(`/purchase/tip/${postId}\\?`));
  await expect(page.getByText(/チップの性質上、お支払い後のキャンセルはできません/)).toBeVisible();
  await page.getByRole('button', { name: /確認してチップを送る/ }).click();
  await expect(page).toHaveURL(/\/billing-sandbox\/checkout\/cs_/);
  await field('カード番号').fill('4242 4242 4242 4242');
  await field('有効期限').fill('12/40');
  await field('セキュリティコード').fill('123');
  await field('カード名義').fill('TARO YAMADA');
  await page.getByRole('button', { name: /カードで .*500.* を支払う/ }).click();
  await expect(page.getByText('チップを送りました。ありがとうございます。')).toBeVisible({
    timeout: 20_000,
  });

  await page.goto('/account');
  await expect(page.getByText('支払い済み').first()).toBeVisible();
  await expect(page.getByRole('link', { name: /へのチップ/ })).toBeVisible();
});
