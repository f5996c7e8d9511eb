import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openListingsFilter, todayInJapan } from '@/lib/jobs';
import { SUBMISSION_REFUSAL_MESSAGES } from '@/server/features/partners/partner-access';
import { listAudit } from '@/server/platform/audit/audit-log';
import { findEndpoint } from '@/lib/cms/model';
import { isContentRequestError } from '@/server/features/content/client';
import { createContentWriter } from '@/server/features/content/content-writer';
import { jobSchema } from '@/server/features/content/schemas';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import type { Database } from '@/server/platform/db/client';
import { jobListings, user, userPublicProfiles } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import type { FormResult } from '@/server/platform/http/form-endpoint';
import { listOutbox } from '@/server/platform/mail/mailer';
import { saveContract } from '@/server/features/partners/contracts';
import {
  type ListingDeps,
  closeListing,
  displayState,
  getListing,
  isLive,
  reviewListing,
  saveListing,
} from './listings';
import { createContent } from '@/server/services/cms/writes';

/**
 * A listing's whole life on a real database and the built-in content service: draft, submit
 * (refused while incomplete, after the contract, past the quota: nothing written), returned
 * with a comment, resubmitted, approved (the `jobs` item is published with the fields), edited
 * while live (the approved version stays), and ended (closing day yesterday: off the list).
 */

const DAY = 86_400_000;
const partner = { userId: 'u-partner', ip: '192.0.2.1' };
const staff = { userId: 'u-staff', ip: '192.0.2.2' };

/** Every field review needs, closing in a month. */
function completeFields(title: string) {
  return {
    title,
    description: 'ブランドの仕事をするデザイナーを募集します。',
    details: '仕事内容です。\n\n応募資格です。',
    employmentType: '正社員',
    occupation: 'グラフィックデザイン',
    prefecture: '東京都',
    remote: '一部リモート',
    location: '渋谷区神宮前',
    salaryUnit: '年収',
    salaryMin: '4,000,000',
    salaryMax: '6000000',
    hours: '10:00〜19:00',
    applyUrl: 'https://example.jp/recruit',
    applyEmail: '',
    closingDate: todayInJapan(new Date(Date.now() + 30 * DAY)),
  };
}

const idOf = (result: FormResult) => {
  expect(result, JSON.stringify(result)).toMatchObject({ ok: true });
  const to = result.ok ? (result.redirectTo ?? '') : '';
  return new URL(to, 'http://site.invalid').searchParams.get('listing')!;
};

describe('job listings', () => {
  let database: Database;
  let site: SiteContent;
  let deps: ListingDeps;

  const readJob = (id: string) =>
    site.client.getListDetail({ endpoint: 'jobs', contentId: id, schema: jobSchema });
  const stored = async (id: string) => (await getListing(database.db, id))!;
  const rowCount = async (partnerId: string) =>
    (await database.db.select().from(jobListings).where(eq(jobListings.partnerId, partnerId)))
      .length;
  /** The partner member submits a listing of that partner for review. */
  const submitAs = (partnerId: string, id: string | null, input: Record<string, unknown>) =>
    saveListing(deps, partnerId, id, input, 'submit', partner);

  beforeAll(async () => {
    vi.stubEnv('APP_SECRET', 'l'.repeat(40));
    database = await createTestDatabase();
    site = createSiteContent({ db: database.db });
    const writer = createContentWriter({ db: database.db });
    deps = { db: database.db, writer: () => writer, now: () => new Date() };
    await database.db.insert(user).values([
      { id: partner.userId, name: 'パートナー', email: 'partner@example.jp' },
      { id: staff.userId, name: '編集部', email: 'staff@example.jp', role: 'editor' },
    ]);
    for (const [id, name] of [
      ['acme', 'アクメ意匠'],
      ['ended-co', '契約終了社'],
      ['small-co', '枠一社'],
    ] as const) {
      await createContent(database.db, findEndpoint('partners')!, {
        id,
        body: { name },
        status: 'publish',
      });
    }
    const yesterday = todayInJapan(new Date(Date.now() - DAY));
    await saveContract(database.db, 'acme', {
      contractStart: '2020-04-01',
      contractEnd: null,
      listingQuota: 5,
    });
    await saveContract(database.db, 'ended-co', {
      contractStart: '2020-04-01',
      contractEnd: yesterday,
      listingQuota: 5,
    });
    await saveContract(database.db, 'small-co', {
      contractStart: '2020-04-01',
      contractEnd: null,
      listingQuota: 1,
    });
  });
  afterAll(async () => {
    site.dispose();
    await database.close();
    vi.unstubAllEnvs();
  });

  let id: string;

  it('saves a draft with only a title', async () => {
    id = idOf(await saveListing(deps, 'acme', null, { title: '下書きの求人' }, 'save', partner));
    const listing = await stored(id);
    expect(listing).toMatchObject({ partnerId: 'acme', state: 'draft', revision: 1 });
    expect(listing.fields.title).toBe('下書きの求人');
  });

  it('refuses a field that breaks its rule, and writes nothing', async () => {
    const result = await saveListing(
      deps,
      'acme',
      id,
      { title: '変えたタイトル', applyUrl: 'ftp://example.jp', salaryMin: '四百万', revision: 1 },
      'save',
      partner,
    );
    expect(result).toMatchObject({ ok: false, status: 400 });
    const errors = result.ok ? {} : (result.fieldErrors ?? {});
    expect(errors.applyUrl).toContain('https://');
    expect(errors.salaryMin).toContain('円単位');
    expect(await stored(id)).toMatchObject({ revision: 1, fields: { title: '下書きの求人' } });
  });

  it('refuses to submit an incomplete listing, naming each missing field', async () => {
    const result = await submitAs('acme', id, { title: '下書きの求人', revision: 1 });
    expect(result).toMatchObject({ ok: false, status: 400 });
    const errors = result.ok ? {} : (result.fieldErrors ?? {});
    for (const field of ['description', 'details', 'employmentType', 'closingDate', 'applyUrl'])
      expect(errors[field], field).toMatch(/。$/);
    expect(await stored(id)).toMatchObject({ state: 'draft', revision: 1 });
  });

  it('refuses a form of an older revision, and a listing of another partner', async () => {
    const input = { ...completeFields('古い画面から'), revision: 99 };
    expect(await saveListing(deps, 'acme', id, input, 'save', partner)).toMatchObject({
      status: 409,
    });
    expect(
      await saveListing(deps, 'small-co', id, { ...input, revision: 1 }, 'save', partner),
    ).toMatchObject({ status: 404 });
    expect(await stored(id)).toMatchObject({ revision: 1, fields: { title: '下書きの求人' } });
  });

  it('refuses a submission after the contract ended, with the Japanese message', async () => {
    const ended = idOf(
      await saveListing(deps, 'ended-co', null, completeFields('契約後の求人'), 'save', partner),
    );
    const result = await submitAs('ended-co', ended, {
      ...completeFields('契約後の求人'),
      revision: 1,
    });
    expect(result).toEqual({
      ok: false,
      status: 403,
      message: SUBMISSION_REFUSAL_MESSAGES['contract-ended'],
    });
    expect(await stored(ended)).toMatchObject({ state: 'draft', revision: 1 });
  });

  it('refuses a submission past the listing quota, and writes nothing', async () => {
    const first = await submitAs('small-co', null, completeFields('一件目'));
    expect(first).toMatchObject({ ok: true });
    expect(await rowCount('small-co')).toBe(1);
    const second = await submitAs('small-co', null, completeFields('二件目'));
    expect(second).toMatchObject({
      ok: false,
      status: 403,
      message: SUBMISSION_REFUSAL_MESSAGES['quota-reached'],
    });
    expect(await rowCount('small-co')).toBe(1);
  });

  it('submits a complete listing for review', async () => {
    const result = await submitAs('acme', id, {
      ...completeFields('グラフィックデザイナー'),
      revision: 1,
    });
    expect(result).toMatchObject({ ok: true, redirectTo: `/jobs/post?listing=${id}` });
    const listing = await stored(id);
    expect(listing).toMatchObject({ state: 'in_review', revision: 2 });
    expect(listing.fields).toMatchObject({ salaryMin: 4_000_000, salaryMax: 6_000_000 });
    expect(listing.submittedAt).toBeInstanceOf(Date);
    const audit = (await listAudit(database.db, 20)).find(
      (row) => row.action === 'job-listing-submitted' && row.target === `job:${id}`,
    );
    expect(audit).toBeDefined();
  });

  it('is not on /jobs while in review', async () => {
    await expect(readJob(id)).rejects.toSatisfy(
      (error: unknown) => isContentRequestError(error) && error.status === 404,
    );
  });

  it('staff return it with a comment the partner sees', async () => {
    expect(
      await reviewListing(deps, id, { decision: 'return', comment: '', revision: 2 }, staff),
    ).toMatchObject({ ok: false, status: 400 });
    const result = await reviewListing(
      deps,
      id,
      { decision: 'return', comment: '給与の上限を確認してください。', revision: 2 },
      staff,
    );
    expect(result).toMatchObject({ ok: true });
    const listing = await stored(id);
    expect(listing).toMatchObject({
      state: 'returned',
      reviewComment: '給与の上限を確認してください。',
      revision: 3,
    });
    // What staff saw, kept to show them what the resubmission changes.
    expect(listing.reviewedFields).toEqual(listing.fields);
    expect(displayState(listing)).toBe('returned');
  });

  it('takes the fixed listing back into review, the comment cleared', async () => {
    const fixed = { ...completeFields('グラフィックデザイナー'), salaryMax: '6500000' };
    const result = await submitAs('acme', id, { ...fixed, revision: 3 });
    expect(result).toMatchObject({ ok: true });
    const resubmitted = await stored(id);
    expect(resubmitted).toMatchObject({
      state: 'in_review',
      reviewComment: null,
      revision: 4,
    });
    expect(resubmitted.reviewedFields?.salaryMax).not.toBe(resubmitted.fields.salaryMax);
  });

  it('publishes the approved listing to the content service with its fields', async () => {
    const result = await reviewListing(deps, id, { decision: 'approve', revision: 4 }, staff);
    expect(result).toMatchObject({ ok: true });
    const listing = await stored(id);
    expect(listing).toMatchObject({ state: 'published', liveUntil: listing.fields.closingDate });
    expect(listing.reviewedFields).toEqual(listing.fields);
    expect(isLive(listing)).toBe(true);

    const job = await readJob(id);
    expect(job).toMatchObject({
      id,
      title: 'グラフィックデザイナー',
      employmentType: ['正社員'],
      prefecture: ['東京都'],
      salaryUnit: ['年収'],
      salaryMin: 4_000_000,
      salaryMax: 6_500_000,
      applyUrl: 'https://example.jp/recruit',
    });
    expect(job.partner).toMatchObject({ id: 'acme', name: 'アクメ意匠' });
    expect(job.body).toContain('<p>応募資格です。</p>');
    expect(job.closingDate?.slice(0, 10)).toBe(listing.fields.closingDate);
  });

  it('keeps the approved version on /jobs while the partner edits it', async () => {
    const edited = { ...completeFields('グラフィックデザイナー（改訂）'), salaryMax: '6500000' };
    const result = await saveListing(deps, 'acme', id, { ...edited, revision: 5 }, 'save', partner);
    expect(result).toMatchObject({ ok: true });
    const listing = await stored(id);
    expect(listing).toMatchObject({ state: 'draft', revision: 6 });
    expect(isLive(listing)).toBe(true);
    expect((await readJob(id)).title).toBe('グラフィックデザイナー');
  });

  it('ends the listing: closing day yesterday, and off the open list', async () => {
    expect(await closeListing(deps, 'small-co', id, { revision: 6 }, partner)).toMatchObject({
      status: 404,
    });
    expect(await closeListing(deps, 'acme', id, { revision: 5 }, partner)).toMatchObject({
      status: 409,
    });
    const result = await closeListing(deps, 'acme', id, { revision: 6 }, partner);
    expect(result).toMatchObject({ ok: true });

    const yesterday = todayInJapan(new Date(Date.now() - DAY));
    const listing = await stored(id);
    expect(listing.liveUntil).toBe(yesterday);
    expect(listing.fields.closingDate).toBe(yesterday);
    expect(isLive(listing)).toBe(false);
    expect((await readJob(id)).closingDate?.slice(0, 10)).toBe(yesterday);

    const open = await site.client.getList({
      endpoint: 'jobs',
      queries: { filters: openListingsFilter(), fields: 'id', limit: 100 },
    });
    expect(open.contents.map((job) => (job as { id: string }).id)).not.toContain(id);
    // Ending it again has nothing to end.
    expect(await closeListing(deps, 'acme', id, { revision: 7 }, partner)).toMatchObject({
      status: 409,
    });
  });

  it("tells staff of a submission and the partner's members of the decision, by mail", async () => {
    await database.db.insert(user).values({
      id: 'u-member',
      name: 'メンバー',
      email: 'member@example.jp',
    });
    await database.db
      .insert(userPublicProfiles)
      .values({ userId: 'u-member', displayName: 'メンバー', partnerId: 'acme' });
    const notifying: ListingDeps = {
      ...deps,
      notify: { staffTo: 'biz@example.jp', partnerName: () => Promise.resolve('アクメ意匠') },
    };
    const mailed = async (to: string) => listOutbox(database.db, { to, limit: 10 });

    const listingId = idOf(
      await saveListing(notifying, 'acme', null, completeFields('通知の求人'), 'submit', partner),
    );
    const [submitted] = await mailed('biz@example.jp');
    expect(submitted).toMatchObject({ kind: 'listing-submitted' });
    expect(submitted!.textBody).toContain('アクメ意匠');
    expect(submitted!.textBody).toContain(`/biz/axis-admin/acme#listing-${listingId}`);

    const comment = '給与の上限を書き添えてください。';
    await reviewListing(
      notifying,
      listingId,
      { decision: 'return', comment, revision: (await stored(listingId)).revision },
      staff,
    );
    const [returned] = await mailed('member@example.jp');
    expect(returned).toMatchObject({ kind: 'listing-returned' });
    expect(returned!.textBody).toContain(comment);
    expect(returned!.textBody).toContain(`/jobs/post?listing=${listingId}`);

    await saveListing(
      notifying,
      'acme',
      listingId,
      { ...completeFields('通知の求人'), revision: (await stored(listingId)).revision },
      'submit',
      partner,
    );
    await reviewListing(
      notifying,
      listingId,
      { decision: 'approve', revision: (await stored(listingId)).revision },
      staff,
    );
    const [approved] = await mailed('member@example.jp');
    expect(approved).toMatchObject({ kind: 'listing-approved' });
    expect(approved!.textBody).toContain(`/jobs/${listingId}`);
  });
});
