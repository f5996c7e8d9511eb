import fs from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { createContentWriter } from '@/server/features/content/content-writer';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import { auditEvents } from '@/server/platform/db/schema';
import { sample } from '@test-support/media-samples';
import { partnerProfileEndpoint } from './partner-admin-http';
import { type PartnerDeps, getPartner } from './partners';
import {
  LUMEO,
  PARTNER_TEST_USERS,
  SORANE,
  addPartnerTestUsers,
} from '@test-support/partner-route-users';
import { SITE, siteHeaders, testDataDir, testDatabase } from '@test-support/route-tests';
import { createContent } from '@/server/services/cms/writes';

/**
 * POST /api/biz/partner-admin/{partnerId}/profile on a real database and the built-in content
 * service: only the partner's own members and staff change its profile; everyone else gets the
 * same 404 whether the partner exists or not, and nothing is written.
 */

const dataDir = testDataDir('partner-admin-http');
const database = testDatabase();

const ORIGINAL = {
  name: 'ソラネ建築設計事務所',
  description: '住宅と公共建築の設計事務所。',
  website: 'https://example.com/partners/sorane',
};
const ORIGINAL_PROFILE = { description: ORIGINAL.description, website: ORIGINAL.website };

let site: SiteContent;
let deps: PartnerDeps;

const users = PARTNER_TEST_USERS;

beforeAll(async () => {
  const { db } = database;
  for (const [id, name] of [
    [SORANE, ORIGINAL.name],
    [LUMEO, '株式会社ルメオ照明'],
  ] as const) {
    await createContent(db, findEndpoint('partners')!, {
      id,
      body: id === SORANE ? ORIGINAL : { name },
      status: 'publish',
    });
  }
  await addPartnerTestUsers(database);
  site = createSiteContent({ db });
  const writer = createContentWriter({ db });
  deps = { db, content: site.client, writer: () => writer };
});

afterAll(() => site.dispose());

/** A post of the profile form as `who` (null: nobody signed in), as fetch sends it. */
function post(
  partnerId: string,
  who: keyof typeof users | null,
  fields: Record<string, string | Blob>,
  accept = 'application/json',
): Promise<Response> {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  const request = new Request(`${SITE}/api/biz/partner-admin/${partnerId}/profile`, {
    method: 'POST',
    headers: { ...siteHeaders({ who: null }), accept },
    body,
  });
  const handle = partnerProfileEndpoint(partnerId, {
    viewer: () => Promise.resolve(who ? users[who] : null),
    deps: () => Promise.resolve(deps),
  });
  return handle(request);
}

const CHANGE = {
  description: '改修と木造を得意とする設計事務所です。所員は十五名。',
  website: 'https://sorane.example.jp',
};

const profileAudits = () =>
  database.db
    .select()
    .from(auditEvents)
    .where(
      and(
        eq(auditEvents.action, 'partner-profile-changed'),
        eq(auditEvents.target, `partner:${SORANE}`),
      ),
    );

/** Puts the partner's profile back between tests. */
async function resetProfile(): Promise<void> {
  await deps.writer().update({
    endpoint: 'partners',
    contentId: SORANE,
    content: { description: ORIGINAL.description, website: ORIGINAL.website },
  });
  await database.db.delete(auditEvents);
}

async function profileOfSorane() {
  const partner = await getPartner(deps, SORANE);
  return { description: partner?.description, website: partner?.website, logo: partner?.logo };
}

describe('who may change a partner profile', () => {
  beforeEach(resetProfile);

  it.each([
    ['an anonymous visitor', null],
    ['a free member', 'free'],
    ['a paid member', 'paid'],
    ['a member of another partner', 'lumeo'],
  ] as const)(
    'answers %s 404, for this partner and for one that does not exist, and writes nothing',
    async (_, who) => {
      for (const partnerId of [SORANE, 'partner-nowhere']) {
        const response = await post(partnerId, who, CHANGE);
        expect(response.status).toBe(404);
        expect(await response.json()).toEqual({
          ok: false,
          message: 'ページが見つかりません。',
          fieldErrors: {},
        });
      }
      expect(await profileOfSorane()).toMatchObject(ORIGINAL_PROFILE);
      expect(await profileAudits()).toEqual([]);
    },
  );

  it('answers a plain post of another partner’s member 404 too, with no one-time message', async () => {
    const response = await post(SORANE, 'lumeo', CHANGE, 'text/html');
    expect(response.status).toBe(404);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await profileOfSorane()).toMatchObject(ORIGINAL_PROFILE);
  });

  it('saves the partner’s own member’s change, with its logo, and audits it', async () => {
    const logo = new File([sample('png')], 'logo.png', { type: 'image/png' });
    const response = await post(SORANE, 'sorane', { ...CHANGE, logo });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      redirectTo: `/biz/partner-admin/${SORANE}?saved=profile`,
      message: '企業情報を保存しました。',
    });
    const saved = await profileOfSorane();
    expect(saved).toMatchObject(CHANGE);
    expect(saved.logo?.url).toMatch(/^\/uploads\//);
    expect(saved.logo).toMatchObject({ width: 3, height: 2 });
    const [audit, ...more] = await profileAudits();
    expect(more).toEqual([]);
    expect(audit).toMatchObject({ actor: `user:${users.sorane.id}`, detail: { logo: true } });
    // The name is staff's to change: a posted name is ignored.
    expect((await getPartner(deps, SORANE))?.name).toBe(ORIGINAL.name);
  });

  it('sends a plain post back to the dashboard, which then says it was saved', async () => {
    const response = await post(SORANE, 'sorane', CHANGE, 'text/html');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/biz/partner-admin/${SORANE}?saved=profile`);
  });

  it('saves a staff member’s change', async () => {
    const response = await post(SORANE, 'staff', { ...CHANGE, name: '別の名前' });
    expect(response.status).toBe(200);
    expect(await profileOfSorane()).toMatchObject(CHANGE);
    expect((await getPartner(deps, SORANE))?.name).toBe(ORIGINAL.name);
    expect(await profileAudits()).toHaveLength(1);
  });

  it('answers staff 404 for a partner that does not exist', async () => {
    const response = await post('partner-nowhere', 'staff', CHANGE);
    expect(response.status).toBe(404);
    expect(await profileAudits()).toEqual([]);
  });
});

describe('bad input on the profile form', () => {
  beforeEach(resetProfile);

  it.each([
    [
      'a website that is not a web address',
      { website: 'sorane.example.jp' },
      { website: 'ウェブサイトは https:// から始まるアドレスを入力してください。' },
    ],
    [
      'a description over 1,000 characters',
      { description: 'あ'.repeat(1001) },
      { description: '紹介文は1,000文字以内で入力してください。' },
    ],
    [
      'a logo that is not an image',
      { logo: new File(['%PDF-1.7 not a picture'], 'logo.png', { type: 'image/png' }) },
      { logo: expect.any(String) as string },
    ],
  ])('refuses %s beside the field and writes nothing', async (_, fields, fieldErrors) => {
    const filesBefore = uploadedFiles();
    const response = await post(SORANE, 'sorane', { ...CHANGE, ...fields });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      ok: false,
      message: '入力内容を確認してください。',
      fieldErrors,
    });
    expect(await profileOfSorane()).toMatchObject(ORIGINAL_PROFILE);
    expect(await profileAudits()).toEqual([]);
    expect(uploadedFiles()).toEqual(filesBefore);
  });

  it('says a logo past the body limit is too large, and writes nothing', async () => {
    const filesBefore = uploadedFiles();
    const huge = new File([new Uint8Array(3 * 1024 * 1024 + 1)], 'logo.png', { type: 'image/png' });
    const response = await post(SORANE, 'sorane', { ...CHANGE, logo: huge });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      ok: false,
      message: 'ロゴ画像が大きすぎます。2 MB までの画像を選んでください。',
    });
    expect(await profileOfSorane()).toMatchObject(ORIGINAL_PROFILE);
    expect(uploadedFiles()).toEqual(filesBefore);
  });

  it('brings the typed text back to a plain post’s form with the messages', async () => {
    const response = await post(
      SORANE,
      'sorane',
      { description: '紹介文', website: 'ftp://sorane' },
      'text/html',
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/biz/partner-admin/${SORANE}`);
    const cookie = response.headers.get('set-cookie') ?? '';
    const flash = decodeURIComponent(/=([^;]+)/.exec(cookie)?.[1] ?? '');
    expect(JSON.parse(Buffer.from(flash, 'base64url').toString('utf8'))).toMatchObject({
      fieldErrors: { website: 'ウェブサイトは https:// から始まるアドレスを入力してください。' },
      values: { description: '紹介文', website: 'ftp://sorane' },
    });
  });
});

/** The files kept in the uploads storage (a refused logo must not leave one). */
function uploadedFiles(): string[] {
  const dir = path.join(dataDir, 'uploads');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => fs.statSync(path.join(dir, name)).isFile())
    .sort();
}
