import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPartnerId } from '@test-support/profiles';
import { todayInJapan } from '@/lib/jobs';
import { findEndpoint } from '@/lib/cms/model';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import { auditEvents, partnerInquiries } from '@/server/platform/db/schema';
import {
  LUMEO,
  PARTNER_TEST_USERS,
  SORANE,
  addPartnerTestUsers,
} from '@test-support/partner-route-users';
import { decodeFlash } from '@/lib/http/flash';
import { submitInquiry } from '@/server/features/inquiries/inquiries';
import { sample } from '@test-support/media-samples';
import {
  getListing,
  isLive,
  listingDeps,
  saveListing,
} from '@/server/features/partners/jobs/listings';
import { axisAdminHandlers } from './axis-admin-http';
import { saveContract } from './contracts';
import { listMembers } from './members';
import { getPartner, listPartners, partnerDeps } from './partners';
import {
  type PostOptions,
  SITE,
  auditsOf as auditsOfAction,
  doneFlash,
  expectBare404,
  formPost,
  testViewer,
  testDataDir,
  testDatabase,
} from '@test-support/route-tests';
import { createContent } from '@/server/services/cms/writes';

/**
 * The routes of /biz/axis-admin (src/app/api/biz/axis-admin/**) on a real database and the
 * built-in content service: anyone but staff gets the same bare 404 from every route and
 * changes nothing; staff create and edit partners, add and remove members, review and close
 * listings and move inquiries along, and every id posted is looked up first.
 */

testDataDir('axis-admin-http');
const database = testDatabase();

const users = PARTNER_TEST_USERS;
type Who = keyof typeof users;
const STRANGERS = [null, 'free', 'paid', 'lumeo', 'sorane'] as const;

let site: SiteContent;

const inThirtyDays = () => todayInJapan(new Date(Date.now() + 30 * 86_400_000));

/** A listing complete enough for review. */
const listingFields = (title: string) => ({
  title,
  description: '住宅の設計を担当していただきます。',
  details: '設計・監理。\n\n経験3年以上。',
  employmentType: '正社員',
  occupation: '建築・インテリア',
  prefecture: '東京都',
  remote: '一部リモート',
  location: '渋谷区',
  salaryUnit: '年収',
  salaryMin: '4000000',
  salaryMax: '6000000',
  hours: '10:00〜19:00',
  applyUrl: 'https://sorane.example.jp/recruit',
  applyEmail: '',
  closingDate: inThirtyDays(),
});

/** A listing of Sorane's member, submitted for review; its id. */
async function submittedListing(title: string): Promise<string> {
  const result = await saveListing(
    await listingDeps(),
    SORANE,
    null,
    listingFields(title),
    'submit',
    { userId: users.sorane.id, ip: null },
  );
  if (!result.ok || !result.redirectTo) throw new Error(JSON.stringify(result));
  return new URL(result.redirectTo, SITE).searchParams.get('listing')!;
}

beforeAll(async () => {
  const { db } = database;
  for (const [id, name] of [
    [SORANE, 'ソラネ建築設計事務所'],
    [LUMEO, '株式会社ルメオ照明'],
  ] as const) {
    await createContent(db, findEndpoint('partners')!, { id, body: { name }, status: 'publish' });
    await saveContract(db, id, { contractStart: '2020-04-01', contractEnd: null, listingQuota: 5 });
  }
  await addPartnerTestUsers(database, (who) => `${who.name} さん`);
  site = createSiteContent({ db });
});

afterAll(() => site.dispose());

const routes = axisAdminHandlers({ viewer: testViewer(users) });

let ip = 0;

type Call = PostOptions<Who>;
const request = formPost;

const api = {
  create: (call: Call) => routes.createPartner(request('/api/biz/axis-admin/partners', call)),
  update: (id: string, call: Call) =>
    routes.updatePartner(request(`/api/biz/axis-admin/partners/${id}`, call), id),
  members: (id: string, call: Call) =>
    routes.members(request(`/api/biz/axis-admin/partners/${id}/members`, call), id),
  review: (id: string, call: Call) =>
    routes.reviewListing(request(`/api/biz/axis-admin/listings/${id}/review`, call), id),
  close: (id: string, call: Call) =>
    routes.closeListing(request(`/api/biz/axis-admin/listings/${id}/close`, call), id),
  inquiry: (id: string, call: Call) =>
    routes.inquiryState(request(`/api/biz/axis-admin/inquiries/${id}`, call), id),
};

const CONTRACT = { contractStart: '2026-04-01', contractEnd: '2027-03-31', listingQuota: '5' };

const auditsOf = (action: string, target: string) => auditsOfAction(database, action, target);

const partnerIdOf = (userId: string) => readPartnerId(database.db, userId);

async function newInquiry(company: string): Promise<string> {
  const result = await submitInquiry(
    'partner-application',
    { db: database.db, contactTo: null },
    {
      company,
      name: '鈴木 花',
      email: `${company.length}-${++ip}@example.jp`,
      phone: '06-9876-5432',
      companySize: '10〜49名',
      plan: '求人掲載',
    },
    { ip: `198.51.100.${++ip % 250}` },
    null,
  );
  if (!result.ok) throw new Error(JSON.stringify(result));
  const [row] = await database.db
    .select({ id: partnerInquiries.id })
    .from(partnerInquiries)
    .where(eq(partnerInquiries.company, company));
  return row!.id;
}

const inquiryState = async (id: string) =>
  (
    await database.db
      .select({ state: partnerInquiries.state })
      .from(partnerInquiries)
      .where(eq(partnerInquiries.id, id))
  )[0]?.state;

describe('anyone but staff', () => {
  let listingId: string;
  let liveId: string;
  let inquiryId: string;

  beforeAll(async () => {
    listingId = await submittedListing('審査中の求人');
    liveId = await submittedListing('公開中の求人');
    const approved = await approve(liveId);
    expect(approved.ok).toBe(true);
    inquiryId = await newInquiry('審査対象外の会社');
  });

  /** Everything a stranger must not be able to change, as it stands. */
  async function snapshot() {
    const deps = await partnerDeps();
    return {
      partners: (await listPartners(deps, {})).totalCount,
      sorane: await getPartner(deps, SORANE),
      soraneMembers: await listMembers(database.db, SORANE),
      free: await partnerIdOf(users.free.id),
      listing: await getListing(database.db, listingId),
      live: await getListing(database.db, liveId),
      inquiry: await inquiryState(inquiryId),
      audits: (await database.db.select().from(auditEvents)).length,
    };
  }

  it.each(STRANGERS)('%s gets a bare 404 from every route and changes nothing', async (who) => {
    const before = await snapshot();
    const listing = (await getListing(database.db, listingId))!;
    const live = (await getListing(database.db, liveId))!;
    const responses = [
      await api.create({ who, fields: { ...CONTRACT, name: '勝手に作る会社' } }),
      await api.update(SORANE, { who, fields: { ...CONTRACT, name: '乗っ取り' } }),
      await api.update('partner-nowhere', { who, fields: { ...CONTRACT, name: '乗っ取り' } }),
      await api.members(SORANE, { who, fields: { intent: 'add', email: users.free.email } }),
      await api.members(SORANE, { who, fields: { intent: 'remove', userId: users.sorane.id } }),
      await api.members(LUMEO, { who, fields: { intent: 'remove', userId: users.lumeo.id } }),
      await api.review(listingId, {
        who,
        fields: { decision: 'approve', revision: String(listing.revision) },
      }),
      await api.review(listingId, {
        who,
        fields: { decision: 'return', comment: '不可', revision: String(listing.revision) },
      }),
      await api.close(liveId, { who, fields: { revision: String(live.revision) } }),
      await api.inquiry(inquiryId, { who, fields: { state: 'done' } }),
      // A plain post gets the same: no redirect, no one-time message.
      await api.update(SORANE, { who, plain: true, fields: { ...CONTRACT, name: '乗っ取り' } }),
      await api.inquiry(inquiryId, { who, plain: true, fields: { state: 'done' } }),
    ];
    for (const response of responses) expectBare404(response);
    expect(await responses[0]!.json()).toEqual({
      ok: false,
      message: 'ページが見つかりません。',
      fieldErrors: {},
    });
    expect(await snapshot()).toEqual(before);
  });
});

/** Staff approve a listing in review (through the route). */
async function approve(id: string) {
  const listing = (await getListing(database.db, id))!;
  const response = await api.review(id, {
    who: 'staff',
    fields: { decision: 'approve', revision: String(listing.revision) },
  });
  return (await response.json()) as { ok: boolean; redirectTo?: string };
}

describe('staff and partners', () => {
  let created: string;

  it('refuses a new partner without a name or a start, writing nothing', async () => {
    const before = (await listPartners(await partnerDeps(), {})).totalCount;
    const response = await api.create({
      who: 'staff',
      fields: { name: '', contractStart: '', listingQuota: '多め' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      ok: false,
      message: '入力内容を確認してください。',
      fieldErrors: {
        name: '企業名を入力してください。',
        contractStart: '契約開始日を入力してください。',
        listingQuota: '掲載枠は0〜1000の半角数字で入力してください (空欄は上限なし)。',
      },
    });
    expect((await listPartners(await partnerDeps(), {})).totalCount).toBe(before);
  });

  it('sends a plain post that failed back to the form with its messages and what was typed', async () => {
    const response = await api.create({
      who: 'staff',
      plain: true,
      referer: '/biz/axis-admin/new',
      // A posted `done` cannot make a failure read as a success.
      fields: {
        formKey: 'partner-new',
        name: '余白デザイン',
        contractStart: '2027-02-30',
        done: '1',
      },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/biz/axis-admin/new');
    const cookie = response.headers.get('set-cookie') ?? '';
    const flash = decodeFlash(/axis_flash=([^;]+)/.exec(cookie)?.[1]);
    expect(flash).toMatchObject({
      fieldErrors: {
        contractStart: '日付は 2027-03-31 の形式で、実在する日付を入力してください。',
      },
      values: { formKey: 'partner-new', name: '余白デザイン', contractStart: '2027-02-30' },
    });
    expect(doneFlash(response)).toBeNull();
  });

  it('keeps the one-time message under a cookie’s 4 KB when every field is long and wrong', async () => {
    const response = await api.create({
      who: 'staff',
      plain: true,
      fields: {
        formKey: 'partner-new',
        name: '長'.repeat(250),
        description: '紹'.repeat(1001),
        website: `https://${'x'.repeat(600)}`,
        contractStart: '明日から',
        contractEnd: '来年まで',
        listingQuota: 'たくさん',
      },
    });
    const cookie = /^axis_flash=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0] ?? '';
    expect(cookie.length).toBeGreaterThan(0);
    expect(cookie.length).toBeLessThan(4000);
    const flash = decodeFlash(cookie.slice('axis_flash='.length));
    expect(Object.keys(flash?.fieldErrors ?? {}).sort()).toEqual([
      'contractEnd',
      'contractStart',
      'description',
      'listingQuota',
      'name',
      'website',
    ]);
  });

  it('creates a partner with its contract and a logo, and says so on its page', async () => {
    const logo = new File([sample('png')], 'logo.png', { type: 'image/png' });
    const response = await api.create({
      who: 'staff',
      fields: {
        ...CONTRACT,
        name: '余白デザイン事務所',
        description: 'グラフィックと編集の事務所。',
        website: 'https://yohaku.example.jp',
        logo,
      },
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { redirectTo: string };
    expect(answer.redirectTo).toMatch(/^\/biz\/axis-admin\/partner-[0-9a-f]{12}$/);
    expect(doneFlash(response)).toBe('余白デザイン事務所 を登録しました。');
    created = answer.redirectTo.slice('/biz/axis-admin/'.length).split('?')[0]!;
    expect(await getPartner(await partnerDeps(), created)).toMatchObject({
      name: '余白デザイン事務所',
      website: 'https://yohaku.example.jp',
      logo: { width: 3, height: 2 },
      contract: { contractStart: '2026-04-01', contractEnd: '2027-03-31', listingQuota: 5 },
    });
    expect(await auditsOf('partner-created', `partner:${created}`)).toHaveLength(1);
  });

  it('edits it, answering a plain post with its page and what was done', async () => {
    const response = await api.update(created, {
      who: 'staff',
      plain: true,
      fields: { ...CONTRACT, name: '余白デザイン事務所', contractEnd: '', listingQuota: '' },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/biz/axis-admin/${created}`);
    expect(doneFlash(response)).toBe('保存しました。');
    expect((await getPartner(await partnerDeps(), created))?.contract).toEqual({
      contractStart: '2026-04-01',
      contractEnd: null,
      listingQuota: null,
    });
    expect(await auditsOf('partner-contract-changed', `partner:${created}`)).toHaveLength(1);
  });

  it('answers 404 for a partner that does not exist or cannot, and 400 for bad input', async () => {
    for (const id of ['partner-nowhere', 'a b', 'x'.repeat(51)])
      expectBare404(await api.update(id, { who: 'staff', fields: { ...CONTRACT, name: '名前' } }));
    const bad = await api.update(created, {
      who: 'staff',
      fields: { ...CONTRACT, name: '余白', website: 'javascript:alert(1)' },
    });
    expect(bad.status).toBe(400);
    expect((await getPartner(await partnerDeps(), created))?.name).toBe('余白デザイン事務所');
  });

  it('adds a member by e-mail, which sets their partner and is audited', async () => {
    const unknown = await api.members(created, {
      who: 'staff',
      fields: { intent: 'add', email: 'nobody@example.jp' },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      fieldErrors: {
        email:
          'このメールアドレスの会員は見つかりません。先に会員登録をしてもらってから追加してください。',
      },
    });
    const taken = await api.members(created, {
      who: 'staff',
      fields: { intent: 'add', email: users.lumeo.email },
    });
    expect(taken.status).toBe(400);
    expect(await partnerIdOf(users.lumeo.id)).toBe(LUMEO);

    const response = await api.members(created, {
      who: 'staff',
      fields: { intent: 'add', email: users.free.email },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      ok: true,
      redirectTo: `/biz/axis-admin/${created}`,
      message: `free@example.jp を 余白デザイン事務所 のメンバーに追加しました。`,
    });
    expect(await partnerIdOf(users.free.id)).toBe(created);
    const [audit] = await auditsOf('partner-changed', `user:${users.free.id}`);
    expect(audit).toMatchObject({
      actor: `user:${users.staff.id}`,
      detail: { from: '', to: created },
    });
  });

  it('removes only that partner’s members: another partner’s user id is a 404', async () => {
    expectBare404(
      await api.members(created, {
        who: 'staff',
        fields: { intent: 'remove', userId: users.lumeo.id },
      }),
    );
    expect(await partnerIdOf(users.lumeo.id)).toBe(LUMEO);
    expectBare404(
      await api.members('partner-nowhere', {
        who: 'staff',
        fields: { intent: 'remove', userId: users.free.id },
      }),
    );
    const junk = await api.members(created, { who: 'staff', fields: { intent: 'promote' } });
    expect(junk.status).toBe(400);

    const response = await api.members(created, {
      who: 'staff',
      plain: true,
      fields: { intent: 'remove', userId: users.free.id },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/biz/axis-admin/${created}#members`);
    expect(await partnerIdOf(users.free.id)).toBe('');
    const audits = await auditsOf('partner-changed', `user:${users.free.id}`);
    expect(audits.map((a) => a.detail)).toContainEqual({ from: created, to: '' });
  });

  it('returns a listing only with a reason, which the partner then sees', async () => {
    const id = await submittedListing('設計スタッフ');
    const listing = (await getListing(database.db, id))!;
    const revision = String(listing.revision);
    const empty = await api.review(id, {
      who: 'staff',
      fields: { decision: 'return', comment: '  ', revision },
    });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      fieldErrors: { comment: '差し戻しの理由を入力してください。' },
    });
    expect((await getListing(database.db, id))?.state).toBe('in_review');

    const response = await api.review(id, {
      who: 'staff',
      fields: { decision: 'return', comment: '給与の上限を確認してください。', revision },
    });
    expect(await response.json()).toMatchObject({
      ok: true,
      redirectTo: `/biz/axis-admin/${SORANE}`,
      message: '「設計スタッフ」を差し戻しました。',
    });
    expect(await getListing(database.db, id)).toMatchObject({
      state: 'returned',
      reviewComment: '給与の上限を確認してください。',
    });
  });

  it('approves a resubmitted listing, which is then on the content service, published', async () => {
    const id = await submittedListing('インテリアデザイナー');
    const first = (await getListing(database.db, id))!;
    await api.review(id, {
      who: 'staff',
      fields: { decision: 'return', comment: '勤務地を詳しく。', revision: String(first.revision) },
    });
    const returned = (await getListing(database.db, id))!;
    const resubmitted = await saveListing(
      await listingDeps(),
      SORANE,
      id,
      {
        ...listingFields('インテリアデザイナー'),
        location: '渋谷区神南',
        revision: String(returned.revision),
      },
      'submit',
      { userId: users.sorane.id, ip: null },
    );
    expect(resubmitted.ok).toBe(true);
    const current = (await getListing(database.db, id))!;

    const stale = await api.review(id, {
      who: 'staff',
      fields: { decision: 'approve', revision: String(returned.revision) },
    });
    expect(stale.status).toBe(409);

    const response = await api.review(id, {
      who: 'staff',
      plain: true,
      fields: { decision: 'approve', revision: String(current.revision) },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/biz/axis-admin/${SORANE}`);
    expect(doneFlash(response)).toBe('「インテリアデザイナー」を承認し、公開しました。');
    const published = (await getListing(database.db, id))!;
    expect(published.state).toBe('published');
    expect(isLive(published)).toBe(true);
    const job = await site.client.getListDetail<{
      title: string;
      location: string;
      partner: { id: string };
    }>({ endpoint: 'jobs', contentId: id });
    expect(job).toMatchObject({
      title: 'インテリアデザイナー',
      location: '渋谷区神南',
      partner: { id: SORANE },
    });
  });

  it('answers 404 for a listing that does not exist or cannot', async () => {
    for (const id of ['job-000000000000', 'job-001', '../listings'])
      expectBare404(
        await api.review(id, { who: 'staff', fields: { decision: 'approve', revision: '1' } }),
      );
    expectBare404(await api.close('job-000000000000', { who: 'staff', fields: {} }));
  });

  it('closes a live listing at once: it leaves /jobs and says so', async () => {
    const id = await submittedListing('期間限定の求人');
    await approve(id);
    const live = (await getListing(database.db, id))!;
    const response = await api.close(id, {
      who: 'staff',
      fields: { revision: String(live.revision) },
    });
    expect(await response.json()).toMatchObject({
      ok: true,
      redirectTo: `/biz/axis-admin/${SORANE}#listing-${id}`,
      message: '「期間限定の求人」の募集を終了しました。',
    });
    const closed = (await getListing(database.db, id))!;
    expect(isLive(closed)).toBe(false);
    expect(closed.liveUntil! < todayInJapan()).toBe(true);
    const again = await api.close(id, {
      who: 'staff',
      fields: { revision: String(closed.revision) },
    });
    expect(again.status).toBe(409);
  });

  it('moves an inquiry along, back to the list as it was being read', async () => {
    const id = await newInquiry('状態を変える会社');
    expect(await inquiryState(id)).toBe('new');
    const response = await api.inquiry(id, {
      who: 'staff',
      plain: true,
      referer: '/biz/axis-admin?q=%E8%A8%AD%E8%A8%88&ipage=2',
      fields: { state: 'in-progress' },
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `/biz/axis-admin?q=%E8%A8%AD%E8%A8%88&ipage=2#inquiry-${id}`,
    );
    expect(doneFlash(response)).toBe('対応状況を「対応中」にしました。');
    expect(await inquiryState(id)).toBe('in-progress');

    const bad = await api.inquiry(id, { who: 'staff', fields: { state: 'archived' } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      fieldErrors: { state: '対応状況を一覧から選んでください。' },
    });
    expect(await inquiryState(id)).toBe('in-progress');
    for (const unknown of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid'])
      expectBare404(await api.inquiry(unknown, { who: 'staff', fields: { state: 'done' } }));
  });

  it('goes back to the bare list after a post from anywhere else', async () => {
    const id = await newInquiry('別の画面から');
    const response = await api.inquiry(id, {
      who: 'staff',
      plain: true,
      referer: '/biz/axis-admin/partner-sorane?x=1',
      fields: { state: 'done' },
    });
    expect(response.headers.get('location')).toBe(`/biz/axis-admin#inquiry-${id}`);
  });
});
