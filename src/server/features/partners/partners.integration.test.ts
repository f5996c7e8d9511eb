import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPartnerId } from '@test-support/profiles';
import { testDataDir, testDatabase } from '@test-support/route-tests';
import { findEndpoint } from '@/lib/cms/model';
import { createContentWriter } from '@/server/features/content/content-writer';
import { type SiteContent, createSiteContent } from '@/server/features/content/site-content';
import {
  auditEvents,
  partnerContracts,
  user,
  userPrivateProfiles,
  userPublicProfiles,
} from '@/server/platform/db/schema';
import type { Role } from '@/lib/identity/roles';
import { sample } from '@test-support/media-samples';
import { contractState } from './contracts';
import { addMember, listMembers, removeMember } from './members';
import {
  PARTNERS_PAGE_SIZE,
  type PartnerDeps,
  createPartner,
  getPartner,
  listPartners,
  updatePartner,
} from './partners';
import { createContent } from '@/server/services/cms/writes';

/**
 * The partner programme's services on a real database and the built-in content service: the
 * staff list (search, pages), contracts through the Japanese calendar, the logo upload, and
 * who may become a member of which partner.
 */

testDataDir('partners');

const STAFF = { userId: 'staff', ip: '192.0.2.1' };
const CONTRACT = { contractStart: '2026-04-01', contractEnd: '2027-03-31', listingQuota: '5' };

const database = testDatabase();
let site: SiteContent;
let deps: PartnerDeps;

beforeAll(() => {
  site = createSiteContent({ db: database.db });
  const writer = createContentWriter({ db: database.db });
  deps = { db: database.db, content: site.client, writer: () => writer };
});

afterAll(() => {
  site.dispose();
});

/** Creates a partner as staff and answers its id. */
async function create(fields: Record<string, unknown>): Promise<string> {
  const result = await createPartner(deps, { ...CONTRACT, ...fields }, STAFF);
  if (!result.ok || !result.redirectTo) throw new Error(JSON.stringify(result));
  return result.redirectTo.replace('/biz/axis-admin/', '');
}

const partnerCount = async () => (await listPartners(deps, {})).totalCount;

async function addUser(
  id: string,
  options: { role?: Role; partnerId?: string | null } = {},
): Promise<string> {
  const email = `${id}@example.jp`;
  await database.db.insert(user).values({ id, name: id, email, role: options.role ?? 'member' });
  if (options.partnerId !== null) {
    await database.db
      .insert(userPublicProfiles)
      .values({ userId: id, displayName: `${id} さん`, partnerId: options.partnerId ?? '' });
    await database.db.insert(userPrivateProfiles).values({ userId: id, email });
  }
  return email;
}

const partnerIdOf = (userId: string) => readPartnerId(database.db, userId);

const auditOf = (action: string, target: string) =>
  database.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.action, action), eq(auditEvents.target, target)));

describe('the staff list of partners', () => {
  const ids: string[] = [];

  beforeAll(async () => {
    for (let i = 1; i <= PARTNERS_PAGE_SIZE + 2; i++) {
      ids.push(await create({ name: `テスト企業 ${String(i).padStart(2, '0')}` }));
      await new Promise((r) => setTimeout(r, 2)); // distinct creation times: "newest" is defined
    }
    ids.push(
      await create({ name: '木と漆の工房', description: '輪島塗の技法で家具をつくる工房です。' }),
    );
  });

  it('pages through every partner, newest first, with the count of pages', async () => {
    const first = await listPartners(deps, {});
    const second = await listPartners(deps, { page: 2 });
    expect(first.totalCount).toBe(PARTNERS_PAGE_SIZE + 3);
    expect(first.pageCount).toBe(2);
    expect(first.items).toHaveLength(PARTNERS_PAGE_SIZE);
    expect(first.items[0]?.name).toBe('木と漆の工房');
    expect(second.items.map((p) => p.id)).toEqual(ids.slice(0, 3).reverse());
    expect(new Set([...first.items, ...second.items].map((p) => p.id)).size).toBe(ids.length);
  });

  it('finds a partner by a word of its name or description', async () => {
    expect((await listPartners(deps, { q: '輪島塗' })).items.map((p) => p.name)).toEqual([
      '木と漆の工房',
    ]);
    expect((await listPartners(deps, { q: '漆の工房' })).totalCount).toBe(1);
    const none = await listPartners(deps, { q: '存在しない会社' });
    expect(none).toMatchObject({ items: [], totalCount: 0, pageCount: 1 });
  });

  it('carries each partner’s contract, its state and its member count', async () => {
    const [newest] = (await listPartners(deps, {}, new Date('2026-11-24T03:00:00Z'))).items;
    expect(newest).toMatchObject({
      contract: { contractStart: '2026-04-01', contractEnd: '2027-03-31', listingQuota: 5 },
      contractState: 'active',
      memberCount: 0,
    });
  });
});

describe('contracts', () => {
  const contract = { contractStart: '2026-04-01', contractEnd: '2027-03-31', listingQuota: 5 };

  it('start and end on Japanese calendar days', () => {
    // 2026-04-01 00:00 in Japan is 2026-03-31 15:00 UTC.
    expect(contractState(contract, new Date('2026-03-31T14:59:59Z'))).toBe('upcoming');
    expect(contractState(contract, new Date('2026-03-31T15:00:00Z'))).toBe('active');
    expect(contractState(contract, new Date('2027-03-31T14:59:59Z'))).toBe('active');
    expect(contractState(contract, new Date('2027-03-31T15:00:00Z'))).toBe('ended');
    expect(contractState({ ...contract, contractEnd: null }, new Date('2040-01-01'))).toBe(
      'active',
    );
  });

  it('reads as none for a partner whose contract was never set', async () => {
    await createContent(database.db, findEndpoint('partners')!, {
      id: 'partner-without-contract',
      body: { name: '契約のない会社' },
      status: 'publish',
    });
    expect(await getPartner(deps, 'partner-without-contract')).toMatchObject({
      contractState: 'none',
      contract: { contractStart: null, contractEnd: null, listingQuota: null },
    });
  });

  it('keeps an empty quota as no limit and folds full-width digits', async () => {
    const open = await create({ name: '上限なしの会社', listingQuota: '' });
    expect((await getPartner(deps, open))?.contract.listingQuota).toBeNull();
    const wide = await create({ name: '全角で入力した会社', listingQuota: '１２' });
    expect((await getPartner(deps, wide))?.contract.listingQuota).toBe(12);
  });
});

describe('creating and editing a partner', () => {
  it('refuses a form without a name or a start, or ending before it starts, writing nothing', async () => {
    const before = await partnerCount();
    expect(await createPartner(deps, { name: ' ', contractStart: '' }, STAFF)).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: {
        name: '企業名を入力してください。',
        contractStart: '契約開始日を入力してください。',
      },
    });
    expect(
      await createPartner(
        deps,
        { name: '逆さまの会社', contractStart: '2027-04-01', contractEnd: '2027-03-31' },
        STAFF,
      ),
    ).toMatchObject({
      status: 400,
      fieldErrors: { contractEnd: '契約終了日は開始日以降の日付を入力してください。' },
    });
    expect(
      await createPartner(
        deps,
        { name: '会社', contractStart: '2027-02-30', listingQuota: 'たくさん', website: 'sorane' },
        STAFF,
      ),
    ).toMatchObject({
      status: 400,
      fieldErrors: {
        contractStart: '日付は 2027-03-31 の形式で、実在する日付を入力してください。',
        listingQuota: '掲載枠は0〜1000の半角数字で入力してください (空欄は上限なし)。',
        website: 'ウェブサイトは https:// から始まるアドレスを入力してください。',
      },
    });
    expect(await partnerCount()).toBe(before);
  });

  it('refuses a logo that is not an image, whatever the file claims, writing nothing', async () => {
    const before = await partnerCount();
    const contracts = (await database.db.select().from(partnerContracts)).length;
    // An SVG can carry script; a sound is a real medium but no picture.
    const refusals: [File, string | RegExp][] = [
      [
        new File(['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'], 'logo.png', {
          type: 'image/png',
        }),
        /^対応していないファイル形式です \(検出された形式: SVG\)。/,
      ],
      [
        new File([sample('mp3')], 'logo.png', { type: 'image/png' }),
        '画像ファイル (JPEG、PNG、WebP など) を選んでください。',
      ],
    ];
    for (const [logo, message] of refusals) {
      const result = await createPartner(deps, { ...CONTRACT, name: '偽ロゴの会社', logo }, STAFF);
      expect(result).toMatchObject({ ok: false, status: 400 });
      expect(!result.ok && result.fieldErrors?.logo).toMatch(message);
    }
    expect(await partnerCount()).toBe(before);
    expect((await database.db.select().from(partnerContracts)).length).toBe(contracts);
  });

  it('stores a real image as the logo and keeps it when the form sends none', async () => {
    const png = new File([sample('png')], 'logo.png', { type: 'image/png' });
    const id = await create({ name: 'ロゴのある会社', logo: png });
    const stored = (await getPartner(deps, id))?.logo;
    expect(stored).toMatchObject({ width: 3, height: 2 });
    expect(stored?.url).toMatch(/^\/uploads\//);

    const saved = await updatePartner(
      deps,
      id,
      { ...CONTRACT, name: 'ロゴのある会社（改称）' },
      STAFF,
    );
    expect(saved).toMatchObject({ ok: true, redirectTo: `/biz/axis-admin/${id}` });
    expect(await getPartner(deps, id)).toMatchObject({
      name: 'ロゴのある会社（改称）',
      logo: stored,
    });
  });

  it('audits a change of contract, and only a change', async () => {
    const id = await create({ name: '契約を変える会社' });
    expect(await auditOf('partner-created', `partner:${id}`)).toHaveLength(1);
    await updatePartner(deps, id, { ...CONTRACT, name: '契約を変える会社' }, STAFF);
    expect(await auditOf('partner-contract-changed', `partner:${id}`)).toHaveLength(0);
    await updatePartner(
      deps,
      id,
      { ...CONTRACT, name: '契約を変える会社', contractEnd: '2028-03-31', listingQuota: '10' },
      STAFF,
    );
    const [changed] = await auditOf('partner-contract-changed', `partner:${id}`);
    expect(changed?.detail).toEqual({
      from: { contractStart: '2026-04-01', contractEnd: '2027-03-31', listingQuota: 5 },
      to: { contractStart: '2026-04-01', contractEnd: '2028-03-31', listingQuota: 10 },
    });
  });

  it('answers 404 for a partner that does not exist or an id that cannot be one', async () => {
    for (const id of ['partner-nothere', '../partner-sorane', ''])
      expect(await updatePartner(deps, id, { ...CONTRACT, name: 'x' }, STAFF)).toMatchObject({
        ok: false,
        status: 404,
      });
    expect(await getPartner(deps, 'a/b')).toBeNull();
  });
});

describe('members', () => {
  let sorane: { id: string; name: string };
  let lumeo: { id: string; name: string };

  beforeAll(async () => {
    sorane = { id: await create({ name: 'ソラネ設計' }), name: 'ソラネ設計' };
    lumeo = { id: await create({ name: 'ルメオ照明' }), name: 'ルメオ照明' };
  });

  it('adds a signed-up reader by e-mail, whatever its case, and audits it', async () => {
    await addUser('hanako');
    const result = await addMember(database.db, sorane, { email: ' HANAKO@example.jp ' }, STAFF);
    expect(result).toMatchObject({ ok: true });
    expect(await partnerIdOf('hanako')).toBe(sorane.id);
    expect(await listMembers(database.db, sorane.id)).toEqual([
      { userId: 'hanako', email: 'hanako@example.jp', displayName: 'hanako さん' },
    ]);
    const [audit] = await auditOf('partner-changed', 'user:hanako');
    expect(audit).toMatchObject({ actor: 'user:staff', detail: { from: '', to: sorane.id } });
    expect((await getPartner(deps, sorane.id))?.memberCount).toBe(1);
  });

  it('refuses whom it cannot add, with the reason beside the field, changing nothing', async () => {
    await addUser('editor', { role: 'editor' });
    await addUser('lumeo-member', { partnerId: lumeo.id });
    await addUser('no-profile', { partnerId: null });
    const refusals: [string, string][] = [
      [
        'nobody@example.jp',
        'このメールアドレスの会員は見つかりません。先に会員登録をしてもらってから追加してください。',
      ],
      [
        'no-profile@example.jp',
        'このメールアドレスの会員は見つかりません。先に会員登録をしてもらってから追加してください。',
      ],
      [
        'editor@example.jp',
        'スタッフはすべてのパートナー企業を管理できるため、メンバーには追加できません。',
      ],
      [
        'lumeo-member@example.jp',
        'この会員はすでに別のパートナー企業のメンバーです。先にそちらから外してください。',
      ],
      ['hanako@example.jp', 'この会員はすでにこの企業のメンバーです。'],
    ];
    for (const [email, message] of refusals) {
      expect(await addMember(database.db, sorane, { email }, STAFF)).toEqual({
        ok: false,
        status: 400,
        message,
        fieldErrors: { email: message },
      });
    }
    expect(await addMember(database.db, sorane, { email: 'not an address' }, STAFF)).toMatchObject({
      status: 400,
      fieldErrors: { email: expect.any(String) as string },
    });
    expect(await partnerIdOf('editor')).toBe('');
    expect(await partnerIdOf('lumeo-member')).toBe(lumeo.id);
    expect(await listMembers(database.db, sorane.id)).toHaveLength(1);
  });

  it('answers 404 when there is no partner to add to', async () => {
    expect(await addMember(database.db, null, { email: 'hanako@example.jp' }, STAFF)).toMatchObject(
      { ok: false, status: 404 },
    );
  });

  it('removes only a member of that partner, and audits it', async () => {
    // Another partner's member, through this partner: as if there were no such member.
    expect(
      await removeMember(database.db, sorane, { userId: 'lumeo-member' }, STAFF),
    ).toMatchObject({ ok: false, status: 404 });
    expect(await partnerIdOf('lumeo-member')).toBe(lumeo.id);
    expect(await auditOf('partner-changed', 'user:lumeo-member')).toHaveLength(0);

    expect(await removeMember(database.db, sorane, { userId: 'hanako' }, STAFF)).toMatchObject({
      ok: true,
    });
    expect(await partnerIdOf('hanako')).toBe('');
    const audits = await auditOf('partner-changed', 'user:hanako');
    expect(audits.map((a) => a.detail)).toContainEqual({ from: sorane.id, to: '' });
    expect(await listMembers(database.db, sorane.id)).toEqual([]);
  });
});
