import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { todayInJapan } from '@/lib/jobs';
import { findEndpoint } from '@/lib/cms/model';
import { createContentWriter } from '@/server/features/content/content-writer';
import type { Database } from '@/server/platform/db/client';
import { jobListings, user, userPublicProfiles } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { decodeFlash } from '@/lib/http/flash';
import type { AppUser } from '@/server/features/identity/session-user';
import { saveContract } from '@/server/features/partners/contracts';
import { type ListingDeps, getListing, reviewListing } from './listings';
import { listingPostHandler } from './listings-http';
import { createContent } from '@/server/services/cms/writes';

/**
 * The listing form's endpoints as each kind of visitor meets them: the partner comes only
 * from the signed-in member's profile, so a member of another partner, a reader and staff get
 * the same 404 for any listing id (existing or not) and every intent, and nothing changes.
 */

const DAY = 86_400_000;
const ORIGIN = 'http://localhost:3000';

const USERS: Record<string, AppUser & { partnerId: string }> = {
  member: { id: 'u-member', partnerId: 'acme', role: 'member' } as never,
  other: { id: 'u-other', partnerId: 'rival', role: 'member' } as never,
  reader: { id: 'u-reader', partnerId: '', role: 'member' } as never,
  staff: { id: 'u-staff', partnerId: '', role: 'editor' } as never,
};
for (const [key, u] of Object.entries(USERS))
  Object.assign(u, { email: `${key}@example.jp`, name: key, emailVerified: true });

const complete = () => ({
  title: 'グラフィックデザイナー',
  description: 'ブランドの仕事をするデザイナーを募集します。',
  details: '仕事内容です。\r\n\r\n応募資格です。',
  employmentType: '正社員',
  occupation: 'グラフィックデザイン',
  prefecture: '東京都',
  remote: '出社',
  salaryUnit: '月給',
  salaryMin: '300000',
  hours: '10:00〜19:00',
  applyEmail: 'recruit@example.jp',
  closingDate: todayInJapan(new Date(Date.now() + 20 * DAY)),
});

type Who = keyof typeof USERS | null;

describe('POST /api/jobs/listings[/{id}]', () => {
  let database: Database;
  let deps: ListingDeps;

  const send = (
    who: Who,
    id: string | null,
    fields: Record<string, string>,
    answer: 'json' | 'form' = 'form',
  ) =>
    listingPostHandler(id, {
      viewer: (headers) => {
        const key = headers.get('x-test-user');
        return Promise.resolve(key ? (USERS[key] ?? null) : null);
      },
      deps: () => Promise.resolve(deps),
    })(
      new Request(`${ORIGIN}/api/jobs/listings${id === null ? '' : `/${id}`}`, {
        method: 'POST',
        headers: {
          host: 'localhost:3000',
          origin: ORIGIN,
          'content-type': 'application/x-www-form-urlencoded',
          accept: answer === 'json' ? 'application/json' : 'text/html',
          ...(who ? { 'x-test-user': who } : {}),
        },
        body: new URLSearchParams(fields),
      }),
    );
  const flashOf = (response: Response) =>
    decodeFlash(/axis_flash=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1]);
  const listingIdIn = (response: Response) =>
    /listing=(job-[a-z0-9]{12})/.exec(response.headers.get('location') ?? '')?.[1] ?? null;
  const rows = async () => database.db.select().from(jobListings);
  const stored = async (id: string) => (await getListing(database.db, id))!;

  /** A listing of the member's partner (acme), saved as a draft through the endpoint. */
  async function draft(title = '下書き') {
    const response = await send('member', null, { intent: 'save', title });
    expect(response.status).toBe(303);
    return listingIdIn(response)!;
  }

  beforeAll(async () => {
    vi.stubEnv('APP_SECRET', 'h'.repeat(40));
    database = await createTestDatabase();
    const writer = createContentWriter({ db: database.db });
    deps = { db: database.db, writer: () => writer, now: () => new Date() };
    for (const u of Object.values(USERS)) {
      await database.db
        .insert(user)
        .values({ id: u.id, name: u.name, email: u.email, role: u.role });
      await database.db
        .insert(userPublicProfiles)
        .values({ userId: u.id, displayName: u.name, partnerId: u.partnerId });
    }
    for (const id of ['acme', 'rival']) {
      await createContent(database.db, findEndpoint('partners')!, {
        id,
        body: { name: id },
        status: 'publish',
      });
      await saveContract(database.db, id, {
        contractStart: '2020-04-01',
        contractEnd: null,
        listingQuota: 10,
      });
    }
  });
  afterAll(async () => {
    await database.close();
    vi.unstubAllEnvs();
  });

  it('asks an anonymous visitor to sign in, and writes nothing', async () => {
    const json = await send(null, null, { intent: 'save', title: 'x' }, 'json');
    expect(json.status).toBe(401);
    const plain = await send(null, null, { intent: 'save', title: 'x' });
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/jobs/post')}`);
    expect(await rows()).toHaveLength(0);
  });

  it('answers 404 to a reader who is not a partner, and to staff, who do not write', async () => {
    for (const who of ['reader', 'staff'] as const) {
      for (const intent of ['save', 'preview', 'submit']) {
        const response = await send(who, null, { intent, ...complete() }, 'json');
        expect(response.status, `${who} ${intent}`).toBe(404);
      }
    }
    const id = await draft();
    const staffSave = await send('staff', id, { intent: 'save', title: '編集部', revision: '1' });
    expect(staffSave.status).toBe(303);
    expect(flashOf(staffSave)?.message).toBe('求人が見つかりません。');
    expect(await stored(id)).toMatchObject({ revision: 1, fields: { title: '下書き' } });
    expect(await rows()).toHaveLength(1);
  });

  it('answers a member of another partner 404 on every intent, as for an id that does not exist', async () => {
    const id = await draft('アクメの下書き');
    const missing = 'job-000000000000';
    for (const intent of ['save', 'preview', 'submit', 'close', 'other']) {
      const fields = { intent, ...complete(), revision: '1', confirmClose: '1' };
      const theirs = await send('other', id, fields, 'json');
      const none = await send('other', missing, fields, 'json');
      expect(theirs.status, intent).toBe(404);
      expect(await theirs.text()).toBe(await none.text());
    }
    expect(await stored(id)).toMatchObject({ revision: 1, state: 'draft' });
    expect(await rows()).toHaveLength(2);
  });

  it('saves a new draft and comes back to it with a confirmation', async () => {
    const response = await send('member', null, { intent: 'save', title: '新しい求人' });
    const id = listingIdIn(response)!;
    expect(response.headers.get('location')).toBe(`/jobs/post?listing=${id}&done=saved`);
    expect(await stored(id)).toMatchObject({ partnerId: 'acme', state: 'draft' });
  });

  it('takes the partner from the profile, never from the form', async () => {
    const response = await send('member', null, {
      intent: 'save',
      title: '別の会社として',
      partnerId: 'rival',
    });
    expect((await stored(listingIdIn(response)!)).partnerId).toBe('acme');
  });

  it('saves, then shows the preview', async () => {
    const id = await draft();
    const response = await send('member', id, {
      intent: 'preview',
      title: '見てみる',
      revision: '1',
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/jobs/preview/${id}`);
    expect(await stored(id)).toMatchObject({ revision: 2, fields: { title: '見てみる' } });
  });

  it('writes nothing on field errors and gives the typed values back', async () => {
    const before = (await rows()).length;
    const response = await send('member', null, {
      intent: 'save',
      title: '途中まで書いた求人',
      hours: '10時から',
      applyUrl: 'example.jp/recruit',
      details: '長い本文。'.repeat(3000),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/jobs/post');
    const flash = flashOf(response)!;
    expect(flash.fieldErrors.applyUrl).toContain('https://');
    expect(flash.values).toMatchObject({
      title: '途中まで書いた求人',
      hours: '10時から',
      applyUrl: 'example.jp/recruit',
      clippedFields: 'details',
    });
    expect(String(flash.values.details)).toMatch(/^長い本文。/);
    // The whole cookie stays under a browser's 4 KB.
    expect(/axis_flash=[^;]+/.exec(response.headers.get('set-cookie')!)![0].length).toBeLessThan(
      4096,
    );
    expect(await rows()).toHaveLength(before);

    const json = await send('member', null, { intent: 'submit', title: '' }, 'json');
    expect(json.status).toBe(400);
    expect(((await json.json()) as { fieldErrors: object }).fieldErrors).toHaveProperty('title');
    expect(await rows()).toHaveLength(before);
  });

  it('keeps an incomplete submission as a draft and names what is missing', async () => {
    const response = await send('member', null, {
      intent: 'submit',
      title: 'まだ途中',
      details: '一段落目。\r\n\r\n二段落目。',
    });
    const id = listingIdIn(response)!;
    expect(response.headers.get('location')).toBe(`/jobs/post?listing=${id}`);
    const flash = flashOf(response)!;
    expect(flash.message).toMatch(/^下書きを保存しました。審査に提出するには/);
    expect(Object.keys(flash.fieldErrors)).toEqual(
      expect.arrayContaining(['description', 'employmentType', 'closingDate']),
    );
    const listing = await stored(id);
    expect(listing.state).toBe('draft');
    expect(listing.fields.details).toBe('一段落目。\n\n二段落目。');
  });

  it('submits a complete listing for review', async () => {
    const id = await draft();
    const response = await send('member', id, { intent: 'submit', ...complete(), revision: '1' });
    expect(response.headers.get('location')).toBe(`/jobs/post?listing=${id}&done=submitted`);
    expect(await stored(id)).toMatchObject({ state: 'in_review' });

    // Previewing it, or saving it as it is, leaves it in review; a change withdraws it.
    const revision = String((await stored(id)).revision);
    const look = await send('member', id, { intent: 'preview', ...complete(), revision });
    expect(look.headers.get('location')).toBe(`/jobs/preview/${id}`);
    const same = await send('member', id, { intent: 'save', ...complete(), revision });
    expect(same.headers.get('location')).toBe(`/jobs/post?listing=${id}&done=unchanged`);
    expect(await stored(id)).toMatchObject({ state: 'in_review', revision: Number(revision) });
    const changed = { ...complete(), hours: '9:00〜18:00', revision };
    await send('member', id, { intent: 'save', ...changed });
    expect(await stored(id)).toMatchObject({ state: 'draft', fields: { hours: '9:00〜18:00' } });
  });

  it('refuses a stale revision with 409', async () => {
    const id = await draft();
    await send('member', id, { intent: 'save', title: '別の画面で', revision: '1' });
    const response = await send(
      'member',
      id,
      { intent: 'save', title: '古い画面から', revision: '1' },
      'json',
    );
    expect(response.status).toBe(409);
    expect((await stored(id)).fields.title).toBe('別の画面で');
  });

  it('ends a live listing only when the member ticked the confirmation', async () => {
    const id = await draft();
    await send('member', id, { intent: 'submit', ...complete(), revision: '1' });
    const approved = await reviewListing(
      deps,
      id,
      { decision: 'approve', revision: (await stored(id)).revision },
      { userId: 'u-staff', ip: null },
    );
    expect(approved).toMatchObject({ ok: true });
    const revision = String((await stored(id)).revision);

    const unconfirmed = await send('member', id, { intent: 'close', revision });
    expect(unconfirmed.headers.get('location')).toBe(`/jobs/post?listing=${id}`);
    expect(flashOf(unconfirmed)?.fieldErrors).toHaveProperty('confirmClose');
    expect((await stored(id)).liveUntil).toBe(complete().closingDate);

    const closed = await send('member', id, { intent: 'close', revision, confirmClose: '1' });
    expect(closed.headers.get('location')).toBe(`/jobs/post?listing=${id}&done=closed`);
    expect((await stored(id)).liveUntil).toBe(todayInJapan(new Date(Date.now() - DAY)));
  });

  it('answers 404 to staff ending a listing here: they end it from /biz/axis-admin', async () => {
    const id = await draft();
    await send('member', id, { intent: 'submit', ...complete(), revision: '1' });
    await reviewListing(
      deps,
      id,
      { decision: 'approve', revision: (await stored(id)).revision },
      { userId: 'u-staff', ip: null },
    );
    const live = await stored(id);
    const response = await send('staff', id, {
      intent: 'close',
      revision: String(live.revision),
      confirmClose: '1',
    });
    expect(flashOf(response)?.message).toBe('求人が見つかりません。');
    expect((await stored(id)).liveUntil).toBe(live.liveUntil);
  });
});
