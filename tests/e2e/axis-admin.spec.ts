import { type Browser, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { signedInPage } from './support/sign-in';
import {
  CHECK_WIDTHS,
  expectAccessibleAtWidths,
  expectScreensAccessible,
  resizeTo,
} from './support/axe';
import { openDocument } from './support/document';

/**
 * The partner programme's staff screens (/biz/axis-admin,
 * docs/decisions/010-partners-and-job-listings.md): staff register a partner with its contract and
 * logo, find it in the list, add a member by e-mail (who then has the partner's dashboard) and
 * remove them again; anyone else (a visitor, a free or paid member, a partner's member) gets 404
 * for the three screens and for their routes. axe on each screen at 360 and 1280 px.
 *
 * Against a partner of its own (the demo partners are only read). The inquiries list is tried
 * in inquiries.spec.ts, on the applications that file sends (the forms' rate limit is shared).
 */

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const PASSWORD = 'kumo-no-kakehashi-7315';
const PARTNER_NAME = `E2E 余白デザイン事務所 ${stamp}`;
const email = (who: string) => `axis-admin-${who}-${stamp}@example.jp`;
const USERS = {
  staff: email('staff'),
  joiner: email('joiner'),
  free: email('free'),
  paid: email('paid'),
  partner: email('partner'),
} as const;
type Who = keyof typeof USERS;

const ids = { partner: '' };
const partnerPage = () => `/biz/axis-admin/${ids.partner}`;

/** A 3×2 PNG. */
const LOGO = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAIAAAASFvFNAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEklEQVQImWN4/Z8BgqDU6/8MAHhuC31sYyaZAAAAAElFTkSuQmCC',
  'base64',
);

/** YYYY-MM-DD in Japan, `days` from now. */
const dayInJapan = (days: number) =>
  new Date(Date.now() + days * 86_400_000 + 9 * 3_600_000).toISOString().slice(0, 10);

const signedIn = (browser: Browser, who: Who): Promise<Page> =>
  signedInPage(browser, USERS[who], PASSWORD);

test.beforeAll(async () => {
  for (const who of Object.keys(USERS) as Who[])
    await admin(
      'create-user',
      '--email',
      USERS[who],
      '--password',
      PASSWORD,
      '--role',
      who === 'staff' ? 'editor' : 'member',
    );
  await admin('grant-plan', '--email', USERS.paid, '--plan', 'monthly');
  await admin('set-partner', '--email', USERS.partner, '--partner', 'partner-lumeo');
});

test('a visitor, free and paid members and a partner’s member get 404 for the screens and routes', async ({
  browser,
}) => {
  const screens = [
    '/biz/axis-admin',
    '/biz/axis-admin/new',
    '/biz/axis-admin/partner-lumeo',
    '/biz/axis-admin/partner-sorane',
    '/biz/axis-admin/partner-nowhere',
  ];
  for (const who of [null, 'free', 'paid', 'partner'] as const) {
    const page = who ? await signedIn(browser, who) : await (await browser.newContext()).newPage();
    for (const path of screens) {
      const response = await openDocument(page, path);
      expect(response.status(), `${who ?? 'visitor'} ${path}`).toBe(404);
      // Not the console's heading (the 404 page's own h1 is ページが見つかりません).
      expect(await response.text()).not.toMatch(/<h1[^>]*>パートナープログラムの管理/);
    }
    // The routes answer the same: a partner's member cannot add someone to their own partner.
    const posts: [string, Record<string, string>][] = [
      ['/api/biz/axis-admin/partners', { name: '勝手に作る会社', contractStart: dayInJapan(0) }],
      [
        '/api/biz/axis-admin/partners/partner-lumeo',
        { name: '乗っ取り', contractStart: dayInJapan(0) },
      ],
      ['/api/biz/axis-admin/partners/partner-lumeo/members', { intent: 'add', email: USERS.free }],
      ['/api/biz/axis-admin/inquiries/00000000-0000-4000-8000-000000000000', { state: 'done' }],
    ];
    for (const [url, form] of posts) {
      const response = await page.request.post(url, {
        form,
        headers: { accept: 'application/json' },
        maxRedirects: 0,
      });
      expect(response.status(), `${who ?? 'visitor'} ${url}`).toBe(404);
    }
    await page.close();
  }
  // Nothing was added: the free member still has no partner dashboard.
  const free = await signedIn(browser, 'free');
  expect((await free.goto('/biz/partner-admin/partner-lumeo'))?.status()).toBe(404);
  await free.close();
});

test('staff register a partner with its contract and logo, from the list', async ({ browser }) => {
  const page = await signedIn(browser, 'staff');
  await page.goto('/biz/axis-admin');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('パートナープログラムの管理');
  await page.getByRole('link', { name: '新しいパートナー企業を登録' }).click();
  await expect(page).toHaveURL(/\/biz\/axis-admin\/new$/);

  // Nothing filled in: the messages stand beside the fields, nothing is created.
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByRole('main').getByRole('alert')).toHaveText(
    '入力内容を確認してください。',
  );
  await expect(page.getByText('企業名を入力してください。')).toBeVisible();
  await expect(page.getByText('契約開始日を入力してください。')).toBeVisible();
  await expect(page.getByLabel('企業名')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/biz\/axis-admin\/new$/);

  await page.getByLabel('企業名').fill(PARTNER_NAME);
  await page.getByLabel('紹介文（任意）').fill('グラフィックと空間のデザイン事務所です。');
  await page.getByLabel('ロゴ（任意）').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: LOGO,
  });
  await page.getByLabel('ウェブサイト（任意）').fill('https://yohaku.example.jp');
  await page.getByLabel('契約開始日').fill(dayInJapan(-10));
  await page.getByLabel('契約終了日（任意）').fill(dayInJapan(355));
  await page.getByLabel('掲載枠（任意）').fill('3');
  await page.getByRole('button', { name: '登録する' }).click();

  await expect(page).toHaveURL(/\/biz\/axis-admin\/partner-[0-9a-f]{12}$/);
  ids.partner = new URL(page.url()).pathname.split('/').at(-1)!;
  await expect(page.getByRole('main').getByRole('status')).toHaveText(
    `${PARTNER_NAME} を登録しました。`,
  );
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PARTNER_NAME);
  await expect(page.getByRole('main')).toContainText('契約中');
  await expect(page.getByRole('img', { name: '現在のロゴ' })).toBeVisible();
  await expect(page.getByLabel('掲載枠（任意）')).toHaveValue('3');
  await expect(page.getByRole('link', { name: '企業の管理画面を開く' })).toHaveAttribute(
    'href',
    `/biz/partner-admin/${ids.partner}`,
  );

  // The message was for that page view only.
  await page.reload();
  await expect(page.getByRole('main').getByRole('status')).toHaveCount(0);
  await page.close();
});

test('the list finds the partner by name, with its contract, quota and members', async ({
  browser,
}) => {
  const page = await signedIn(browser, 'staff');
  await page.goto('/biz/axis-admin');
  await page.getByLabel('企業名・紹介文で検索').fill(PARTNER_NAME);
  await page.getByRole('button', { name: '検索' }).click();
  await expect(page).toHaveURL(/\?q=/);
  const row = page.getByRole('row').filter({ hasText: PARTNER_NAME });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('契約中');
  await expect(row).toContainText('3件');
  await expect(row).toContainText('0人');
  await expect(row.getByRole('link', { name: PARTNER_NAME })).toHaveAttribute(
    'href',
    partnerPage(),
  );

  await page.goto(`/biz/axis-admin?q=${encodeURIComponent(`該当なし${stamp}`)}`);
  await expect(
    page.getByText(`「該当なし${stamp}」に一致するパートナー企業はありません。`),
  ).toBeVisible();
  // A page number out of shape is ignored, never an error.
  expect((await page.goto('/biz/axis-admin?page=abc&ipage=-3&q='))?.status()).toBe(200);
  await page.close();
});

test('staff add a member by e-mail, who then has the dashboard, and remove them again', async ({
  browser,
}) => {
  const staff = await signedIn(browser, 'staff');
  const joiner = await signedIn(browser, 'joiner');
  expect((await joiner.goto(`/biz/partner-admin/${ids.partner}`))?.status()).toBe(404);

  await staff.goto(partnerPage());
  const members = staff.locator('#members');
  await expect(members.getByText('メンバーはまだいません。')).toBeVisible();
  const field = members.getByLabel('追加する会員のメールアドレス');
  await field.fill(`nobody-${stamp}@example.jp`);
  await members.getByRole('button', { name: 'メンバーを追加' }).click();
  await expect(
    members.getByText(
      'このメールアドレスの会員は見つかりません。先に会員登録をしてもらってから追加してください。',
    ),
  ).toHaveCount(2); // the form's message and the field's
  await expect(field).toHaveAttribute('aria-invalid', 'true');

  await field.fill(USERS.joiner);
  await members.getByRole('button', { name: 'メンバーを追加' }).click();
  await expect(staff.getByRole('main').getByRole('status')).toHaveText(
    `${USERS.joiner} を ${PARTNER_NAME} のメンバーに追加しました。`,
  );
  await expect(staff.locator('#members').getByText(USERS.joiner, { exact: true })).toBeVisible();

  expect((await joiner.goto(`/biz/partner-admin/${ids.partner}`))?.status()).toBe(200);

  await staff
    .locator('#members')
    .getByRole('button', { name: new RegExp(`外す.*${USERS.joiner.replace(/[.+]/g, '\\$&')}`) })
    .click();
  await expect(staff.getByRole('main').getByRole('status')).toHaveText(
    `${USERS.joiner} をメンバーから外しました。`,
  );
  await expect(staff.locator('#members').getByText(USERS.joiner, { exact: true })).toHaveCount(0);

  expect((await joiner.goto(`/biz/partner-admin/${ids.partner}`))?.status()).toBe(404);
  await staff.close();
  await joiner.close();
});

test('the three screens pass axe at 360 and 1280 px, with no sideways scroll', async ({
  browser,
}) => {
  const page = await signedIn(browser, 'staff');
  await expectScreensAccessible(page, ['/biz/axis-admin', '/biz/axis-admin/new', partnerPage()]);
  // And with the form's messages shown.
  await resizeTo(page, CHECK_WIDTHS[0]);
  await page.goto('/biz/axis-admin/new');
  await page.getByRole('button', { name: '登録する' }).click();
  await expect(page.getByText('企業名を入力してください。')).toBeVisible();
  await expectAccessibleAtWidths(page);
  await page.close();
});
