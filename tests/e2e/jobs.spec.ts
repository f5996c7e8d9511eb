import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { admin } from './support/admin';
import { expectScreensAccessible } from './support/axe';

// The public jobs side (docs/decisions/010-partners-and-job-listings.md): /jobs with its filters in
// the URL, a listing's page with its JobPosting data and the counted way to apply, and a listing
// past its closing day that leaves the list but still says what it was. Against a partner of its
// own, so the counts are exact whatever else the corpus holds.

test.describe.configure({ mode: 'serial' });

const stamp = Date.now();
const PARTNER_NAME = `イーツーイー設計室${stamp}`;
const ids = { partner: '', open: [] as string[], remote: '', closed: '' };
/** In every listing's description: what the search finds them by. */
const WORD = `kyujin${stamp}`;
let created = 0;

/** A day in Japan, `days` from today, as the listing form stores a closing date. */
function closingDay(days: number): string {
  const day = new Date(Date.now() + 9 * 3600_000 + days * 86_400_000).toISOString().slice(0, 10);
  return `${day}T23:59:59+09:00`;
}

async function create(request: APIRequestContext, key: string, endpoint: string, data: object) {
  const post = () =>
    request.post(`/api/v1/${endpoint}`, { headers: { 'X-MICROCMS-API-KEY': key }, data });
  let res = await post();
  // The content API allows a key 10 writes a second: past that, wait a second and try again.
  if (res.status() === 429) {
    await new Promise((r) => setTimeout(r, 1000));
    res = await post();
  }
  expect(res.status(), `create ${endpoint}: ${await res.text()}`).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** A listing of the partner, published a minute after the one before (a known order). */
const listing = (title: string, fields: object) => ({
  title,
  partner: ids.partner,
  description: `${title}の募集です。 ${WORD}`,
  body: `<h2>仕事内容</h2><p>${title}として、書籍と展覧会のデザインを担当します。</p>`,
  employmentType: ['正社員'],
  occupation: ['グラフィックデザイン'],
  prefecture: ['東京都'],
  remote: ['出社'],
  location: '港区南青山',
  salaryUnit: ['年収'],
  salaryMin: 4_000_000,
  salaryMax: 6_000_000,
  hours: '10:00〜19:00（休憩1時間）',
  applyUrl: `https://example.com/recruit/e2e-${stamp}`,
  closingDate: closingDay(30),
  publishedAt: new Date(Date.now() - (60 - ++created) * 60_000).toISOString(),
  ...fields,
});

test.beforeAll(async ({ request }) => {
  const key = (await admin('create-api-key', '--name', 'e2e jobs', '--permissions', 'GET,POST')).at(
    -1,
  )!;
  ids.partner = await create(request, key, 'partners', {
    name: PARTNER_NAME,
    description: 'e2e のための架空の設計事務所。',
    website: 'https://example.com/partners/e2e',
  });
  // 13 open 正社員 listings in Tokyo (two pages of 12), one フルリモート, one closed.
  for (let n = 1; n <= 13; n++)
    ids.open.push(await create(request, key, 'jobs', listing(`グラフィックデザイナー ${n}`, {})));
  ids.remote = await create(
    request,
    key,
    'jobs',
    listing('ウェブデザイナー（在宅）', {
      employmentType: ['業務委託'],
      occupation: ['ウェブ・UIデザイン'],
      prefecture: [],
      remote: ['フルリモート'],
      location: '打ち合わせはオンライン',
      salaryUnit: ['月給'],
      salaryMin: 400_000,
      salaryMax: 600_000,
    }),
  );
  ids.closed = await create(
    request,
    key,
    'jobs',
    listing('募集を終えた編集者', { closingDate: closingDay(-2) }),
  );
});

const filters = (page: Page) => page.getByRole('search', { name: '求人の絞り込み' });
const count = (page: Page) => page.getByText(/^\d+件の求人$/);
const results = (page: Page) => page.getByRole('main').getByRole('article');

test('filters combine, stay in the URL, and the paging keeps them (by keyboard)', async ({
  page,
}) => {
  await page.goto('/jobs');
  await filters(page).getByLabel('企業').selectOption({ label: PARTNER_NAME });
  // 雇用形態 by keyboard: the first option after すべて is 正社員.
  await filters(page).getByLabel('雇用形態').focus();
  await page.keyboard.press('ArrowDown');
  await expect(filters(page).getByLabel('雇用形態')).toHaveValue('正社員');
  await filters(page).getByRole('button', { name: '絞り込む' }).focus();
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(
    new RegExp(`[?&]type=${encodeURIComponent('正社員')}&.*partner=${ids.partner}`),
  );
  await expect(count(page)).toHaveText('13件の求人');
  await expect(results(page)).toHaveCount(12);
  await expect(page.getByRole('link', { name: '募集を終えた編集者' })).toHaveCount(0);
  await expect(filters(page).getByLabel('雇用形態')).toHaveValue('正社員');
  await expect(filters(page).getByLabel('企業')).toHaveValue(ids.partner);

  const paging = page.getByRole('navigation', { name: 'ページ送り' });
  await paging.getByRole('link', { name: '2 ページ目' }).click();
  await expect(page).toHaveURL(/[?&]page=2(&|$)/);
  expect(new URL(page.url()).searchParams.get('partner')).toBe(ids.partner);
  expect(new URL(page.url()).searchParams.get('type')).toBe('正社員');
  await expect(results(page)).toHaveCount(1);
  await expect(count(page)).toHaveText('13件の求人');
  // The oldest listing is last.
  await expect(
    results(page).getByRole('link', { name: 'グラフィックデザイナー 1', exact: true }),
  ).toBeVisible();

  // フルリモート is a place of its own.
  await page.goto(`/jobs?location=remote&partner=${ids.partner}`);
  await expect(count(page)).toHaveText('1件の求人');
  await expect(results(page).first()).toContainText('ウェブデザイナー（在宅）');
  await expect(results(page).first()).toContainText('フルリモート');
  await expect(results(page).first()).toContainText('月給 40万〜60万円');
});

test('no match says so and offers to clear the filters; bad values are ignored', async ({
  page,
}) => {
  await page.goto(`/jobs?partner=${ids.partner}&location=${encodeURIComponent('沖縄県')}`);
  const empty = page.getByRole('main').getByRole('status');
  await expect(empty).toContainText('条件に合う求人はありません。');
  await expect(count(page)).toHaveText('0件の求人');
  await empty.getByRole('link', { name: '条件をクリアしてすべての求人を見る' }).click();
  await expect(page).toHaveURL(/\/jobs$/);
  await expect(filters(page).getByLabel('勤務地')).toHaveValue('');

  for (const query of [
    'type=%E6%AD%A3%E7%A4%BE%E5%93%A1%5Bor%5Dtitle%5Bexists%5D',
    'location=Tokyo&occupation=%00',
    'partner=..%2F..%2Fetc&page=abc',
    'page=999',
  ]) {
    const res = await page.goto(`/jobs?${query}`);
    expect(res?.status(), query).toBe(200);
  }
  // Filtered and later pages are not indexed; their canonical page is /jobs.
  await page.goto(`/jobs?partner=${ids.partner}`);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/jobs$/);
});

test('a listing has its conditions, JobPosting data and a counted apply button', async ({
  page,
  request,
}) => {
  const id = ids.open[0]!;
  await page.goto(`/jobs/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('グラフィックデザイナー 1');
  const conditions = page.getByRole('region', { name: '募集要項' });
  await expect(conditions).toContainText('年収 400万〜600万円');
  await expect(conditions).toContainText('東京都 港区南青山');
  await expect(page.getByRole('region', { name: '企業情報' })).toContainText(PARTNER_NAME);

  const data = JSON.parse(
    (await page.locator('script[type="application/ld+json"]').textContent()) ?? '',
  ) as Record<string, unknown>[];
  const posting = data.find((o) => o['@type'] === 'JobPosting');
  expect(posting).toMatchObject({
    title: 'グラフィックデザイナー 1',
    employmentType: ['FULL_TIME'],
    hiringOrganization: { '@type': 'Organization', name: PARTNER_NAME },
    jobLocation: { address: { addressRegion: '東京都', addressCountry: 'JP' } },
    baseSalary: {
      currency: 'JPY',
      value: { minValue: 4_000_000, maxValue: 6_000_000, unitText: 'YEAR' },
    },
    directApply: false,
  });
  expect(Date.parse(String(posting?.validThrough))).toBeGreaterThan(Date.now());
  expect(String(posting?.datePosted)).toMatch(/^\d{4}-\d\d-\d\dT/);

  const apply = page.getByRole('link', { name: 'この求人に応募する' });
  await expect(apply).toHaveAttribute('href', `/jobs/${id}/apply`);
  // The route counts and sends on to the listing's own address (not followed to example.com).
  const res = await request.get(`/jobs/${id}/apply?url=https://evil.example/`, {
    maxRedirects: 0,
  });
  expect(res.status()).toBe(303);
  expect(res.headers()['location']).toBe(`https://example.com/recruit/e2e-${stamp}`);
  expect(res.headers()['x-robots-tag']).toBe('noindex');
  expect((await request.get('/jobs/no-such-job/apply', { maxRedirects: 0 })).status()).toBe(404);

  // フルリモート: telecommute from Japan, no place.
  await page.goto(`/jobs/${ids.remote}`);
  const remote = (
    JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? '',
    ) as Record<string, unknown>[]
  ).find((o) => o['@type'] === 'JobPosting');
  expect(remote).toMatchObject({
    jobLocationType: 'TELECOMMUTE',
    applicantLocationRequirements: { '@type': 'Country', name: 'JP' },
  });
  expect(remote).not.toHaveProperty('jobLocation');
});

test('a closed listing says so, drops its JobPosting, is noindex and takes no applications', async ({
  page,
  request,
}) => {
  const res = await page.goto(`/jobs/${ids.closed}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('main').getByRole('note')).toContainText(
    'この求人の募集は終了しました',
  );
  await expect(page.getByRole('link', { name: 'この求人に応募する' })).toHaveCount(0);
  await expect(page.locator('script[type="application/ld+json"]')).toHaveCount(0);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);

  const apply = await request.get(`/jobs/${ids.closed}/apply`, { maxRedirects: 0 });
  expect(apply.status()).toBe(303);
  expect(apply.headers()['location']).toMatch(new RegExp(`/jobs/${ids.closed}$`));

  // Gone from the list, the sitemap and the search.
  await page.goto(`/jobs?partner=${ids.partner}`);
  await expect(count(page)).toHaveText('14件の求人');
  await expect(page.getByRole('link', { name: '募集を終えた編集者' })).toHaveCount(0);
  const sitemap = await (await request.get('/sitemap/0.xml')).text();
  expect(sitemap).toContain(`/jobs/${ids.open[0]}</loc>`);
  expect(sitemap).not.toContain(`/jobs/${ids.closed}</loc>`);
  // The closed one is the newest of the partner's: it would be first if it were found.
  await page.goto(`/search?q=${WORD}&type=jobs`);
  await expect(page.getByRole('link', { name: /ウェブデザイナー（在宅）/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /募集を終えた編集者/ })).toHaveCount(0);
});

test('/jobs and a listing pass axe at 360 and 1280 px, without sideways scroll', async ({
  page,
}) => {
  await expectScreensAccessible(
    page,
    [
      '/jobs',
      `/jobs?partner=${ids.partner}&type=${encodeURIComponent('正社員')}`,
      `/jobs?partner=${ids.partner}&location=${encodeURIComponent('沖縄県')}`,
      `/jobs/${ids.open[0]}`,
      `/jobs/${ids.closed}`,
    ],
    { height: 800 },
  );
});
