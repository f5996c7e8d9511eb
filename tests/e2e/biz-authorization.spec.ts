import { type APIRequestContext, type BrowserContext, expect, test } from '@playwright/test';
import { admin } from './support/admin';

/**
 * Who may open which partner screen and send which of its requests, tried as every kind of
 * visitor against the running server: anonymous, a free member, a paid member, a member of
 * another partner, the partner's own member and staff. Anything not allowed is a 404 that
 * changes nothing, also when one partner's ids are put into another's parameters and fields.
 */

const PASSWORD = 'Kumo-Sora-2026!';
const stamp = Date.now().toString(36);
const A = 'partner-sorane';
const B = 'partner-lumeo';
const ACTORS = ['anonymous', 'free', 'paid', 'otherPartner', 'member', 'staff'] as const;
type Actor = (typeof ACTORS)[number];
const email = (actor: Actor) => `authz-${actor}-${stamp}@example.jp`;

const JSON_ACCEPT = { accept: 'application/json' };

const listingFields = (title: string) => ({
  title,
  description: '権限の確認に使う求人です。',
  details: '仕事内容の説明です。',
  employmentType: '正社員',
  occupation: 'その他',
  prefecture: '東京都',
  remote: '出社',
  location: '東京都渋谷区',
  salaryUnit: '年収',
  salaryMin: '4000000',
  salaryMax: '6000000',
  hours: '10:00〜19:00',
  applyUrl: 'https://example.com/apply',
  applyEmail: '',
  closingDate: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10),
});

test.describe('partner screens and requests, by who is asking', () => {
  const contexts = new Map<Actor, BrowserContext>();
  const api = (actor: Actor): APIRequestContext => contexts.get(actor)!.request;
  let listingA = '';
  let listingB = '';

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    for (const actor of ACTORS) {
      const context = await browser.newContext();
      contexts.set(actor, context);
      if (actor === 'anonymous') continue;
      await admin('create-user', '--email', email(actor), '--password', PASSWORD);
      if (actor === 'paid') await admin('grant-plan', '--email', email(actor), '--plan', 'monthly');
      if (actor === 'staff') await admin('set-role', '--email', email(actor), '--role', 'editor');
      if (actor === 'member') await admin('set-partner', '--email', email(actor), '--partner', A);
      if (actor === 'otherPartner')
        await admin('set-partner', '--email', email(actor), '--partner', B);
      const signIn = await context.request.post('/api/account/sign-in', {
        headers: JSON_ACCEPT,
        form: { email: email(actor), password: PASSWORD },
      });
      expect(signIn.ok(), `${actor} signs in`).toBe(true);
    }
    // One listing in review for each partner, submitted by its own member.
    const submit = async (actor: Actor, title: string) => {
      const res = await api(actor).post('/api/jobs/listings', {
        headers: JSON_ACCEPT,
        form: { ...listingFields(title), intent: 'submit' },
      });
      expect(res.status(), await res.text()).toBe(200);
      const { redirectTo } = (await res.json()) as { redirectTo: string };
      return new URL(redirectTo, 'http://x').searchParams.get('listing')!;
    };
    listingA = await submit('member', `権限確認A-${stamp}`);
    listingB = await submit('otherPartner', `権限確認B-${stamp}`);
  });

  test.afterAll(async () => {
    for (const context of contexts.values()) await context.close();
  });

  const pageRules: { path: () => string; allowed: readonly Actor[] }[] = [
    { path: () => '/biz/axis-admin', allowed: ['staff'] },
    { path: () => '/biz/axis-admin/new', allowed: ['staff'] },
    { path: () => `/biz/axis-admin/${A}`, allowed: ['staff'] },
    { path: () => `/biz/partner-admin/${A}`, allowed: ['member', 'staff'] },
    { path: () => `/jobs/preview/${listingA}`, allowed: ['member', 'staff'] },
  ];

  test('each page opens for those it is for, and is a 404 for everyone else', async () => {
    for (const rule of pageRules) {
      for (const actor of ACTORS) {
        const res = await api(actor).get(rule.path(), { maxRedirects: 0 });
        expect(res.status(), `${actor} GET ${rule.path()}`).toBe(
          rule.allowed.includes(actor) ? 200 : 404,
        );
      }
    }
    // Another partner's dashboard and preview are as unknown to a member as ids that do not exist.
    for (const path of [
      `/biz/partner-admin/${B}`,
      `/jobs/preview/${listingB}`,
      '/biz/partner-admin/partner-nowhere',
      '/jobs/preview/job-000000000000',
    ]) {
      expect((await api('member').get(path, { maxRedirects: 0 })).status(), path).toBe(404);
    }
  });

  test('a staff request from anyone else is a 404 and changes nothing', async () => {
    const free = email('free');
    const staffRequests: { url: string; form: Record<string, string> }[] = [
      {
        url: '/api/biz/axis-admin/partners',
        form: { name: `乗っ取り-${stamp}`, contractStart: '2026-01-01' },
      },
      {
        url: `/api/biz/axis-admin/partners/${A}`,
        form: { name: `改ざん-${stamp}`, contractStart: '2020-01-01' },
      },
      { url: `/api/biz/axis-admin/partners/${A}/members`, form: { intent: 'add', email: free } },
      {
        url: `/api/biz/axis-admin/listings/${listingA}/review`,
        form: { decision: 'approve', revision: '1' },
      },
      { url: `/api/biz/axis-admin/listings/${listingA}/close`, form: { revision: '1' } },
      {
        url: '/api/biz/axis-admin/inquiries/00000000-0000-4000-8000-000000000000',
        form: { state: 'done' },
      },
    ];
    for (const actor of ACTORS.filter((a) => a !== 'staff')) {
      for (const { url, form } of staffRequests) {
        const res = await api(actor).post(url, { headers: JSON_ACCEPT, form, maxRedirects: 0 });
        expect(res.status(), `${actor} POST ${url}`).toBe(404);
      }
    }
    // Nothing happened: the listing is still in review, the free member is no partner, no
    // partner was created.
    const staffView = await api('staff').get(`/biz/axis-admin/${A}`);
    expect(await staffView.text()).not.toContain(`改ざん-${stamp}`);
    const users = (await admin('list-users')).find((line) => line.includes(free)) ?? '';
    expect(users).toContain('partner=-');
    const list = await api('staff').get(
      `/biz/axis-admin?q=${encodeURIComponent(`乗っ取り-${stamp}`)}`,
    );
    expect(await list.text()).toContain('一致するパートナー企業はありません');
    expect((await api('member').get(`/jobs/preview/${listingA}`)).status()).toBe(200);
    expect((await api('anonymous').get(`/jobs/${listingA}`)).status()).toBe(404);
  });

  test("a partner's requests are the partner's own: 404 for anyone else, whatever the fields say", async () => {
    // Every intent on partner A's listing, by everyone who does not write for partner A.
    for (const actor of ['anonymous', 'free', 'paid', 'otherPartner', 'staff'] as const) {
      for (const intent of ['save', 'submit', 'preview', 'close']) {
        const res = await api(actor).post(`/api/jobs/listings/${listingA}`, {
          headers: JSON_ACCEPT,
          form: { ...listingFields(`横取り-${stamp}`), intent, revision: '1' },
          maxRedirects: 0,
        });
        expect([401, 404], `${actor} ${intent} on A's listing`).toContain(res.status());
      }
    }
    // Partner A's id and listing id in the fields of partner B's own requests do nothing to A.
    const sneaky = await api('otherPartner').post('/api/jobs/listings', {
      headers: JSON_ACCEPT,
      form: {
        ...listingFields(`紛れ込み-${stamp}`),
        intent: 'save',
        id: listingA,
        listing: listingA,
        partnerId: A,
        partner: A,
      },
    });
    expect(sneaky.status()).toBe(200);
    const created = new URL(
      ((await sneaky.json()) as { redirectTo: string }).redirectTo,
      'http://x',
    ).searchParams.get('listing')!;
    expect(created).not.toBe(listingA);
    const dashboardA = await (await api('member').get(`/biz/partner-admin/${A}`)).text();
    expect(dashboardA).not.toContain(`紛れ込み-${stamp}`);
    expect(dashboardA).not.toContain(`横取り-${stamp}`);
    expect(dashboardA).toContain(`権限確認A-${stamp}`);
    const dashboardB = await (await api('otherPartner').get(`/biz/partner-admin/${B}`)).text();
    expect(dashboardB).toContain(`紛れ込み-${stamp}`);

    // The profile route of partner A: only its member and staff.
    for (const actor of ['anonymous', 'free', 'paid', 'otherPartner'] as const) {
      const res = await api(actor).post(`/api/biz/partner-admin/${A}/profile`, {
        headers: JSON_ACCEPT,
        form: { description: `書き換え-${stamp}`, website: 'https://evil.example.com' },
        maxRedirects: 0,
      });
      expect(res.status(), `${actor} profile of A`).toBe(404);
    }
    // A member posting B's id in the body of A's profile route changes A only.
    const own = await api('member').post(`/api/biz/partner-admin/${A}/profile`, {
      headers: JSON_ACCEPT,
      form: {
        description: `ソラネの紹介-${stamp}`,
        website: 'https://example.com/partners/sorane',
        partnerId: B,
        id: B,
      },
    });
    expect(own.status()).toBe(200);
    expect(await (await api('otherPartner').get(`/biz/partner-admin/${B}`)).text()).not.toContain(
      `ソラネの紹介-${stamp}`,
    );
    expect(await (await api('anonymous').get(`/jobs?partner=${A}`)).text()).not.toContain(
      `書き換え-${stamp}`,
    );
  });
});
