import { type Browser, type Locator, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { signIn, signedInPage } from './support/sign-in';
import { expectScreensAccessible } from './support/axe';
import { openDocument } from './support/document';

// A partner's dashboard (/biz/partner-admin/{id}, docs/decisions/010-partners-and-job-listings.md):
// its member finds it from the account page, sees the contract, the quota in use and the partner's
// jobs with their counts, and edits the company profile shown on the partner's job pages; every
// outsider (another partner's member, a free or paid member, a visitor) gets 404 for the page and
// for its form; staff see it too. Against a partner of its own, created by staff, so the figures
// are exact.

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const PASSWORD = 'sora-no-niwa-4821';
const PARTNER_NAME = `余白建築研究所${stamp}`;
const JOB_TITLE = `展示空間のデザイナー ${stamp}`;
const email = (who: string) => `partner-admin-${who}-${stamp}@example.jp`;
const USERS = {
  member: email('member'),
  otherPartner: email('other'),
  free: email('free'),
  paid: email('paid'),
  staff: email('staff'),
} as const;
type Who = keyof typeof USERS;

const ids = { partner: '', job: '' };
const dashboard = () => `/biz/partner-admin/${ids.partner}`;
const profileRoute = (partnerId = ids.partner) => `/api/biz/partner-admin/${partnerId}/profile`;

/** The page's URL ends with this path (and query). */
const endsWith = (path: string) => new RegExp(`${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);

/** A day in Japan `days` from today, YYYY-MM-DD. */
const japanDay = (days: number) =>
  new Date(Date.now() + 9 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);

const NEW_PROFILE = {
  description: `展示空間と家具の設計を手がける事務所です。${stamp}`,
  website: `https://yohaku-${stamp}.example.jp`,
};

const signedIn = (browser: Browser, who: Who): Promise<Page> =>
  signedInPage(browser, USERS[who], PASSWORD);

/** The value beside a term of a card's facts (閲覧数, 応募クリック数, …). */
const fact = (card: Locator, term: string) =>
  card.locator('div', { has: card.page().getByText(term, { exact: true }) }).locator('dd');

test.beforeAll(async ({ browser, request }) => {
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

  // Staff create the partner with its contract, as on /biz/axis-admin/new.
  const staff = await signedIn(browser, 'staff');
  const created = await staff.request.post('/api/biz/axis-admin/partners', {
    headers: { accept: 'application/json' },
    form: {
      name: PARTNER_NAME,
      description: 'e2e のための架空の建築設計事務所。',
      website: 'https://example.com/partners/yohaku',
      contractStart: japanDay(-30),
      contractEnd: japanDay(335),
      listingQuota: '3',
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  const { redirectTo } = (await created.json()) as { redirectTo: string };
  ids.partner = /\/biz\/axis-admin\/([^/?#]+)/.exec(redirectTo)![1]!;
  await staff.close();

  await admin('set-partner', '--email', USERS.member, '--partner', ids.partner);
  await admin('set-partner', '--email', USERS.otherPartner, '--partner', 'partner-lumeo');

  // A job the editors placed for the partner themselves (no listing of its own).
  const key = (
    await admin(
      'create-api-key',
      '--name',
      `e2e partner-admin ${stamp}`,
      '--permissions',
      'GET,POST',
    )
  ).at(-1)!;
  const job = await request.post('/api/v1/jobs', {
    headers: { 'X-MICROCMS-API-KEY': key },
    data: {
      title: JOB_TITLE,
      partner: ids.partner,
      description: '展覧会の会場構成と什器の設計を担当します。',
      body: '<h2>仕事内容</h2><p>展覧会の会場構成と什器の設計を担当します。</p>',
      employmentType: ['正社員'],
      occupation: ['建築・インテリア'],
      prefecture: ['東京都'],
      remote: ['出社'],
      location: '港区南青山',
      salaryUnit: ['年収'],
      salaryMin: 4_200_000,
      salaryMax: 6_000_000,
      hours: '10:00〜19:00（休憩1時間）',
      applyUrl: `https://example.com/recruit/partner-admin-${stamp}`,
      closingDate: `${japanDay(60)}T23:59:59+09:00`,
    },
  });
  expect(job.status(), await job.text()).toBe(201);
  ids.job = ((await job.json()) as { id: string }).id;
});

test('a member finds the dashboard from the account page and sees the contract and the jobs', async ({
  browser,
}) => {
  const page = await signedIn(browser, 'member');
  await page.goto('/account/edit');
  await page.getByRole('link', { name: `${PARTNER_NAME} の管理画面` }).click();
  await expect(page).toHaveURL(endsWith(dashboard()));
  await expect(page).toHaveTitle('パートナー管理 | AXIS Membership');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(PARTNER_NAME);

  const contract = page.getByRole('region', { name: 'ご契約' });
  await expect(contract).toContainText('契約中');
  await expect(contract).toContainText('3件中0件を使用');
  await expect(contract.getByText('現在、求人を審査に出すことはできません')).toHaveCount(0);

  const listings = page.getByRole('region', { name: /^求人/ });
  await expect(listings.getByText('まだ求人はありません。')).toBeVisible();
  await expect(listings.getByRole('link', { name: '新しい求人を作成' })).toHaveAttribute(
    'href',
    '/jobs/post',
  );
  const job = listings.getByRole('article', { name: JOB_TITLE });
  await expect(listings.getByRole('heading', { name: /^編集部が掲載した求人/ })).toBeVisible();
  await expect(job.getByText('公開中')).toBeVisible();
  await expect(fact(job, '応募クリック数')).toHaveText('0');

  // A reader's click on 「この求人に応募する」 is counted and shown here.
  const click = await page.request.get(`/jobs/${ids.job}/apply`, {
    maxRedirects: 0,
    headers: {
      'user-agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    },
  });
  expect(click.status()).toBe(303);
  await page.reload();
  await expect(fact(page.getByRole('article', { name: JOB_TITLE }), '応募クリック数')).toHaveText(
    '1',
  );

  const members = page.getByRole('region', { name: /^メンバー/ });
  await expect(members).toContainText(USERS.member);
  await expect(members).toContainText('メンバーの追加・削除は担当者にご連絡ください。');
});

test('a member edits the description and website, which the job page then shows', async ({
  browser,
}) => {
  const page = await signedIn(browser, 'member');
  await page.goto(dashboard());
  const profile = page.getByRole('region', { name: '企業情報' });
  await expect(profile).toContainText('企業名と契約内容の変更は担当者にご連絡ください');
  await profile.getByLabel('紹介文').fill(NEW_PROFILE.description);
  await profile.getByLabel('ウェブサイト').fill(NEW_PROFILE.website);
  await profile.getByRole('button', { name: '企業情報を保存する' }).click();
  await expect(page).toHaveURL(endsWith(`${dashboard()}?saved=profile`));
  await expect(
    page.getByRole('status').filter({ hasText: '企業情報を保存しました。' }),
  ).toBeVisible();
  await expect(page.getByLabel('紹介文')).toHaveValue(NEW_PROFILE.description);
  await expect(page.getByLabel('ウェブサイト')).toHaveValue(NEW_PROFILE.website);

  await page.goto(`/jobs/${ids.job}`);
  const company = page.getByRole('region', { name: '企業情報' });
  await expect(company).toContainText(NEW_PROFILE.description);
  await expect(company.getByRole('link', { name: /^企業のウェブサイト/ })).toHaveAttribute(
    'href',
    NEW_PROFILE.website,
  );
});

test('a website that is not a web address gets a message beside the field and saves nothing', async ({
  browser,
}) => {
  const page = await signedIn(browser, 'member');
  await page.goto(dashboard());
  await page.getByLabel('紹介文').fill('保存されないはずの紹介文');
  await page.getByLabel('ウェブサイト').fill('yohaku.example.jp');
  await page.getByRole('button', { name: '企業情報を保存する' }).click();
  await expect(
    page.getByText('ウェブサイトは https:// から始まるアドレスを入力してください。'),
  ).toBeVisible();
  await expect(page.getByLabel('ウェブサイト')).toHaveAttribute('aria-invalid', 'true');
  await page.goto(dashboard());
  await expect(page.getByLabel('紹介文')).toHaveValue(NEW_PROFILE.description);
  await expect(page.getByLabel('ウェブサイト')).toHaveValue(NEW_PROFILE.website);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the message comes back with what was typed', async ({ page }) => {
    await signIn(page, USERS.member, PASSWORD);
    await page.goto(dashboard());
    await page.getByLabel('紹介文').fill('JavaScript なしで書いた紹介文');
    await page.getByLabel('ウェブサイト').fill('ftp://yohaku.example.jp');
    await page.getByRole('button', { name: '企業情報を保存する' }).click();
    await expect(page).toHaveURL(endsWith(dashboard()));
    await expect(
      page.getByText('ウェブサイトは https:// から始まるアドレスを入力してください。'),
    ).toBeVisible();
    await expect(page.getByLabel('紹介文')).toHaveValue('JavaScript なしで書いた紹介文');
    await expect(page.getByLabel('ウェブサイト')).toHaveValue('ftp://yohaku.example.jp');
  });
});

test('outsiders get 404 for the dashboard and its form, and nothing changes', async ({
  browser,
  page,
}) => {
  const attempt = { description: '書き換えの試み', website: 'https://outsider.example.jp' };
  const outsiders: (Who | null)[] = ['otherPartner', 'free', 'paid', null];
  for (const who of outsiders) {
    const visitor = who
      ? await signedIn(browser, who)
      : await (await browser.newContext()).newPage();
    const label = who ?? 'anonymous';
    for (const partnerId of [ids.partner, 'partner-nowhere']) {
      const response = await openDocument(visitor, `/biz/partner-admin/${partnerId}`);
      expect(response.status(), `${label} ${partnerId}`).toBe(404);
      for (const accept of ['application/json', 'text/html']) {
        const post = await visitor.request.post(profileRoute(partnerId), {
          headers: { accept },
          form: attempt,
          maxRedirects: 0,
        });
        expect(post.status(), `${label} POST ${partnerId} (${accept})`).toBe(404);
      }
    }
    await visitor.close();
  }
  // Another partner's member still has a dashboard of their own.
  const other = await signedIn(browser, 'otherPartner');
  expect((await other.goto('/biz/partner-admin/partner-lumeo'))?.status()).toBe(200);
  await other.close();

  await signIn(page, USERS.member, PASSWORD);
  await page.goto(dashboard());
  await expect(page.getByLabel('紹介文')).toHaveValue(NEW_PROFILE.description);
  await expect(page.getByLabel('ウェブサイト')).toHaveValue(NEW_PROFILE.website);
});

test('staff see the dashboard, without writing a listing, and where members are managed', async ({
  browser,
}) => {
  const page = await signedIn(browser, 'staff');
  const response = await page.goto(dashboard());
  expect(response?.status()).toBe(200);
  await expect(page.getByText('スタッフとして表示しています。')).toBeVisible();
  await expect(page.getByRole('link', { name: '新しい求人を作成' })).toHaveCount(0);
  await expect(
    page.getByRole('link', { name: 'メンバーを追加・削除する（パートナー企業の編集画面）' }),
  ).toHaveAttribute('href', `/biz/axis-admin/${ids.partner}#members`);
});

test('the dashboard passes axe at 360 and 1280 px', async ({ browser }) => {
  const page = await signedIn(browser, 'member');
  await expectScreensAccessible(page, [dashboard()], {
    ready: (p) => expect(p.getByRole('heading', { level: 1 })).toContainText(PARTNER_NAME),
  });
});
