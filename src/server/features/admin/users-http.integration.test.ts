import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { MONTHLY_PLAN, YEARLY_PLAN } from '@test-support/plans';
import { readPartnerId } from '@test-support/profiles';
import { syncCatalogue } from '@/server/features/billing/catalogue';
import { findEndpoint } from '@/lib/cms/model';
import { auditEvents, session, subscriptions, user } from '@/server/platform/db/schema';
import { decodeFlash } from '@/lib/http/flash';
import type { Role } from '@/lib/identity/roles';
import type { AppUser } from '@/server/features/identity/session-user';
import { listSubscriptions } from '@/server/features/profiles/subscriptions';
import { SELF_DEMOTION_MESSAGE, adminUserHandlers } from './users-http';
import { getUserDetail, searchUsers } from './users-directory';
import {
  NOT_ADMINS,
  type PostOptions,
  TEST_VIEWER_HEADER,
  addUser,
  appUser,
  auditsOf as auditsOfAction,
  doneFlash,
  expectBare404,
  formPost,
  testDataDir,
  testDatabase,
  usersByRole,
} from '@test-support/route-tests';
import { createContent } from '@/server/services/cms/writes';

/**
 * The routes of /admin/users/{id} (src/app/api/admin/users/**) on a real database: anyone but
 * an admin (anonymous, a member, an editor) gets the same bare 404 from every route and
 * changes nothing; an admin changes roles, plans, partners and sessions, each audited with
 * the admin as actor and the client's address; bad input gets field errors and writes nothing.
 */

testDataDir('admin-users-http');
const database = testDatabase();

const PUBLISHED = 'partner-sorane';
const DRAFT = 'partner-draft';

type Who = Role;
const users: Record<Who | 'target', AppUser> = {
  ...usersByRole('u-'),
  target: appUser('u-target', 'member'),
};

async function addSession(userId: string, n: number): Promise<void> {
  await database.db.insert(session).values({
    id: `s-${userId}-${n}`,
    token: `t-${userId}-${n}`,
    userId,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
}

beforeAll(async () => {
  const { db } = database;
  // The plan catalogue a complimentary plan is chosen from (the sandbox's two plans).
  await syncCatalogue(db);
  await createContent(db, findEndpoint('partners')!, {
    id: PUBLISHED,
    body: { name: 'ソラネ建築設計事務所' },
    status: 'publish',
  });
  await createContent(db, findEndpoint('partners')!, {
    id: DRAFT,
    body: { name: '下書きの会社' },
    status: 'draft',
  });
  let day = 0;
  for (const who of Object.values(users))
    await addUser(database, who, {
      displayName: `${who.name} さん`,
      createdAt: new Date(Date.UTC(2026, 0, 1 + day++)),
    });
});

const routes = adminUserHandlers({
  viewer: async (headers) => {
    const who = headers.get(TEST_VIEWER_HEADER) as Who | null;
    if (!who) return null;
    // As the site does: the role is read from the database on every request.
    const [row] = await database.db
      .select({ role: user.role })
      .from(user)
      .where(eq(user.id, users[who].id));
    return { ...users[who], role: (row?.role ?? 'member') as Role };
  },
});

type Call = Omit<PostOptions<Who>, 'referer'>;

/** A post to the route; a plain one comes from the user's page. */
const request = (url: string, call: Call) =>
  formPost(url, {
    ...call,
    referer: call.plain ? url.replace('/api', '').replace(/\/[a-z]+$/, '') : undefined,
  });

const api = {
  role: (id: string, call: Call) => routes.role(request(`/api/admin/users/${id}/role`, call), id),
  plan: (id: string, call: Call) => routes.plan(request(`/api/admin/users/${id}/plan`, call), id),
  partner: (id: string, call: Call) =>
    routes.partner(request(`/api/admin/users/${id}/partner`, call), id),
  sessions: (id: string, call: Call) =>
    routes.sessions(request(`/api/admin/users/${id}/sessions`, call), id),
};

const auditsOf = (action: string, target = `user:${users.target.id}`) =>
  auditsOfAction(database, action, target);

const roleOf = async (id: string) =>
  (await database.db.select({ role: user.role }).from(user).where(eq(user.id, id)))[0]?.role;

const partnerOf = (id: string) => readPartnerId(database.db, id);

const sessionsOf = async (id: string) =>
  (await database.db.select().from(session).where(eq(session.userId, id))).length;

describe('anyone but an admin', () => {
  beforeAll(async () => {
    await addSession(users.target.id, 1);
  });

  it.each(NOT_ADMINS)('gets a bare 404 from every route and changes nothing (%s)', async (who) => {
    const t = users.target.id;
    const before = await getUserDetail(database.db, t);
    for (const plain of [false, true]) {
      expectBare404(await api.role(t, { who, plain, fields: { role: 'admin' } }));
      expectBare404(
        await api.plan(t, {
          who,
          plain,
          fields: { intent: 'grant', plan: '招待', status: 'active' },
        }),
      );
      expectBare404(await api.plan(t, { who, plain, fields: { intent: 'revoke' } }));
      expectBare404(await api.partner(t, { who, plain, fields: { partner: PUBLISHED } }));
      expectBare404(await api.sessions(t, { who, plain }));
      // Junk input is not looked at either: the same 404, not a 400 that confirms the route.
      expectBare404(await api.role(t, { who, plain, fields: { role: 'owner' } }));
    }
    expect(await getUserDetail(database.db, t)).toEqual(before);
    expect(await sessionsOf(t)).toBeGreaterThan(0);
    const audited = await database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.target, `user:${t}`));
    expect(audited).toEqual([]);
  });
});

describe('an admin', () => {
  it('gets a 404 for a user who does not exist or an id out of shape', async () => {
    expectBare404(await api.role('no-such-user', { who: 'admin', fields: { role: 'editor' } }));
    expectBare404(await api.sessions('../u-target', { who: 'admin' }));
  });

  /** The role form of a user's page, posted by the admin without JavaScript. */
  const roleFormByAdmin = (userId: string, role: string) =>
    api.role(userId, { who: 'admin', plain: true, fields: { formKey: 'role', role } });

  it('changes a role, audited with the admin as actor and the address', async () => {
    const response = await roleFormByAdmin(users.target.id, 'editor');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/admin/users/${users.target.id}`);
    expect(doneFlash(response)).toContain('「会員」から「編集者」に変更しました');
    expect(await roleOf(users.target.id)).toBe('editor');
    const [entry] = await auditsOf('role-changed');
    expect(entry).toMatchObject({
      actor: `user:${users.admin.id}`,
      detail: { from: 'member', to: 'editor' },
    });
    expect(entry?.ip).toMatch(/^192\.0\.2\./);
    // The contributor (寄稿者) is assigned the same way, audited the same way.
    const contributor = await roleFormByAdmin(users.target.id, 'contributor');
    expect(doneFlash(contributor)).toContain('「編集者」から「寄稿者」に変更しました');
    expect(await roleOf(users.target.id)).toBe('contributor');
    expect(await auditsOf('role-changed')).toHaveLength(2);
    // Back to member for the next tests.
    await api.role(users.target.id, { who: 'admin', fields: { role: 'member' } });
    expect(await roleOf(users.target.id)).toBe('member');
  });

  it('refuses a role that does not exist, beside the field, writing nothing', async () => {
    const audits = (await auditsOf('role-changed')).length;
    const response = await api.role(users.target.id, { who: 'admin', fields: { role: 'owner' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { fieldErrors: Record<string, string> };
    expect(body.fieldErrors.role).toMatch(/選んでください/);
    expect(await roleOf(users.target.id)).toBe('member');
    expect(await auditsOf('role-changed')).toHaveLength(audits);
  });

  it('cannot demote themself, and is told why', async () => {
    const response = await roleFormByAdmin(users.admin.id, 'member');
    expect(response.status).toBe(303);
    const cookie = /axis_flash=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
    const flash = decodeFlash(cookie);
    expect(flash?.message).toBe(SELF_DEMOTION_MESSAGE);
    expect(flash?.values.formKey).toBe('role');
    expect(await roleOf(users.admin.id)).toBe('admin');
    expect(await auditsOf('role-changed', `user:${users.admin.id}`)).toEqual([]);
  });

  it('grants a complimentary plan with an end, and revokes it', async () => {
    const granted = await api.plan(users.target.id, {
      who: 'admin',
      fields: { intent: 'grant', plan: 'monthly', status: 'active', days: '30' },
    });
    expect(granted.status).toBe(200);
    const [current] = await listSubscriptions(database.db, users.target.id);
    expect(current?.status).toBe('active');
    expect(current?.items[0]?.price.product.name).toBe(MONTHLY_PLAN.name);
    const end = new Date(current!.current_period_end!).getTime();
    expect(Math.abs(end - (Date.now() + 30 * 86_400_000))).toBeLessThan(60_000);
    const [grantAudit] = await auditsOf('plan-granted');
    expect(grantAudit).toMatchObject({
      actor: `user:${users.admin.id}`,
      detail: {
        plan: MONTHLY_PLAN.name,
        planKey: 'monthly',
        status: 'active',
        days: 30,
        subscription: current!.id,
      },
    });
    const listed = await searchUsers(database.db, { q: users.target.email, page: 1 });
    expect(listed.items[0]?.plan).toMatchObject({ paid: true, planName: MONTHLY_PLAN.name });

    const revoked = await api.plan(users.target.id, {
      who: 'admin',
      plain: true,
      fields: { intent: 'revoke' },
    });
    expect(doneFlash(revoked)).toContain('1件取り消しました');
    expect((await listSubscriptions(database.db, users.target.id))[0]?.status).toBe('canceled');
    expect((await auditsOf('plan-revoked'))[0]?.detail).toEqual({ count: 1 });
  });

  it('refuses a plan not in the catalogue or a bad term, writing nothing', async () => {
    const before = (await listSubscriptions(database.db, users.target.id)).length;
    const typed = await api.plan(users.target.id, {
      who: 'admin',
      fields: { intent: 'grant', plan: '招待プラン', status: 'active', days: '' },
    });
    expect(typed.status).toBe(400);
    const refusal = (await typed.json()) as { fieldErrors: Record<string, string> };
    expect(refusal.fieldErrors.plan).toContain('「招待プラン」はプランの一覧にありません');
    expect(refusal.fieldErrors.plan).toContain(`monthly（${MONTHLY_PLAN.name}）`);
    for (const fields of [
      { plan: '', status: 'active', days: '' },
      { plan: 'monthly', status: 'active', days: '0' },
      { plan: 'monthly', status: 'active', days: '三十' },
      { plan: 'monthly', status: 'paid', days: '' },
    ]) {
      const response = await api.plan(users.target.id, {
        who: 'admin',
        fields: { intent: 'grant', ...fields },
      });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { fieldErrors: Record<string, string> };
      expect(Object.keys(body.fieldErrors)).toHaveLength(1);
    }
    const missing = await api.plan(users.target.id, { who: 'admin', fields: { intent: 'x' } });
    expect(missing.status).toBe(400);
    expect(await listSubscriptions(database.db, users.target.id)).toHaveLength(before);
  });

  it('grants a plan with no end', async () => {
    await api.plan(users.target.id, {
      who: 'admin',
      fields: { intent: 'grant', plan: YEARLY_PLAN.name, status: 'trialing', days: '' },
    });
    const [current] = await listSubscriptions(database.db, users.target.id);
    expect(current).toMatchObject({ status: 'trialing', current_period_end: null });
    expect(current?.items[0]?.price.product.name).toBe(YEARLY_PLAN.name);
    await database.db.delete(subscriptions).where(eq(subscriptions.userId, users.target.id));
  });

  it('sets a published partner, refuses a draft one, and clears it', async () => {
    const draft = await api.partner(users.target.id, { who: 'admin', fields: { partner: DRAFT } });
    expect(draft.status).toBe(400);
    const junk = await api.partner(users.target.id, {
      who: 'admin',
      fields: { partner: '<script>' },
    });
    expect(junk.status).toBe(400);
    expect(await partnerOf(users.target.id)).toBe('');
    expect(await auditsOf('partner-changed')).toEqual([]);

    const set = await api.partner(users.target.id, {
      who: 'admin',
      plain: true,
      fields: { partner: PUBLISHED },
    });
    expect(doneFlash(set)).toContain('ソラネ建築設計事務所のメンバーにしました');
    expect(await partnerOf(users.target.id)).toBe(PUBLISHED);
    const cleared = await api.partner(users.target.id, { who: 'admin', fields: { partner: '' } });
    expect(cleared.status).toBe(200);
    expect(await partnerOf(users.target.id)).toBe('');
    const audits = await auditsOf('partner-changed');
    expect(audits.map((a) => a.detail)).toEqual(
      expect.arrayContaining([
        { from: '', to: PUBLISHED },
        { from: PUBLISHED, to: '' },
      ]),
    );
    expect(audits.every((a) => a.actor === `user:${users.admin.id}`)).toBe(true);
  });

  it('signs a user out everywhere', async () => {
    await addSession(users.target.id, 2);
    const live = await sessionsOf(users.target.id);
    expect(live).toBeGreaterThanOrEqual(2);
    await addSession(users.member.id, 9);
    const response = await api.sessions(users.target.id, { who: 'admin', plain: true });
    expect(response.status).toBe(303);
    expect(doneFlash(response)).toContain(`${live}台の端末からログアウトさせました`);
    expect(await sessionsOf(users.target.id)).toBe(0);
    // Nobody else's sessions.
    expect(await sessionsOf(users.member.id)).toBe(1);
    const [entry] = await auditsOf('sessions-revoked');
    expect(entry).toMatchObject({ actor: `user:${users.admin.id}`, detail: { count: live } });
  });
});

describe('searchUsers', () => {
  it('finds by address or display name, newest first, with literal wildcards', async () => {
    const all = await searchUsers(database.db, { q: '', page: 1 });
    expect(all.items.map((u) => u.id)).toEqual([
      'u-target',
      'u-admin',
      'u-editor',
      'u-contributor',
      'u-member',
    ]);
    expect((await searchUsers(database.db, { q: 'U-EDITOR@', page: 1 })).items).toHaveLength(1);
    expect((await searchUsers(database.db, { q: 'u-admin さん', page: 1 })).items).toHaveLength(1);
    expect((await searchUsers(database.db, { q: '%', page: 1 })).total).toBe(0);
  });

  it('shows the last page for a page past the end', async () => {
    const far = await searchUsers(database.db, { q: '', page: 999 });
    expect(far.page).toBe(1);
    expect(far.items).toHaveLength(5);
  });
});
