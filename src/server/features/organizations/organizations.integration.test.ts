import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '@test-support/db/test-database';
import { type Database, useDatabase } from '@/server/platform/db/client';
import {
  auditEvents,
  billingPlans,
  mailOutbox,
  organizationMembers,
  organizations,
  user,
} from '@/server/platform/db/schema';
import type { AppUser } from '@/server/features/identity';
import { viewerForUser } from '@/server/features/access';
import { audienceChangedSince } from '@/server/features/audience';
import {
  createOrganization,
  inviteAddress,
  listOrganizations,
  noteSeatRead,
  organizationRevenue,
  removeMember,
  seatStanding,
  setOrganizationAdmin,
  updateOrganization,
} from './index';
import { organizationsHandlers } from './http';
import { handleViewBeacon } from '@/server/features/analytics/view-endpoint';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';

/**
 * The attack tests of 法人プラン (docs/decisions/058-organizations.md), on a real database through
 * the access policy's own viewer: only a confirmed address at exactly an allowed domain (or an
 * invited one) takes a seat, seats are never passed by joins at the same moment, leaving ends the
 * access at once (the audience cookie signed before is distrusted), and one organisation's admin
 * never reaches another's members or report.
 */

let database: Database;
let n = 0;

async function reader(email: string, emailVerified = true): Promise<AppUser> {
  const id = `u${++n}`;
  await database.db.insert(user).values({ id, name: `読者${n}`, email, emailVerified });
  return { id, email, name: `読者${n}`, role: 'member', emailVerified };
}

const paid = async (u: AppUser) => {
  const viewer = await viewerForUser(u);
  return viewer.kind === 'member' && viewer.paid;
};

const STAFF = { actor: 'cli:test' };
async function organization(name: string, seats: number, domains: string[]) {
  const made = await createOrganization(
    database.db,
    {
      name,
      addressee: `${name} 御中`,
      billingContactName: '経理 花子',
      billingContactEmail: `keiri@${domains[0] ?? 'example.jp'}`,
      seats,
      planKey: 'yearly',
      billing: 'invoice',
      domains,
    },
    STAFF,
  );
  if (!made.ok) throw new Error(JSON.stringify(made.fieldErrors));
  return made.id;
}

beforeAll(async () => {
  database = await createTestDatabase();
  useDatabase(database);
});
afterAll(async () => {
  useDatabase(undefined);
  await database.close();
});

describe('joining by a confirmed address at an allowed domain', () => {
  it('an unconfirmed address takes no seat; confirmed, it reads as a paid member', async () => {
    await organization('株式会社コープ', 5, ['corp.example']);
    const taro = await reader('taro@corp.example', false);
    expect(await paid(taro)).toBe(false);
    expect(await seatStanding(database.db, taro.id)).toBeNull();
    expect(await paid({ ...taro, emailVerified: true })).toBe(true);
    expect(await seatStanding(database.db, taro.id)).toEqual({
      organizationName: '株式会社コープ',
      status: 'active',
    });
  });

  it('a look-alike domain takes no seat; the same domain in capitals does', async () => {
    for (const email of [
      'jiro@corp.example.evil',
      'jiro@evilcorp.example',
      'jiro@mail.corp.example',
      'jiro@ｃｏｒｐ.example',
      'jiro@сorp.example',
      'jiro@xn--orp-qdd.example',
      'corp.example@evil.example',
    ]) {
      expect(await paid(await reader(email)), email).toBe(false);
    }
    expect(await paid(await reader('Saburo@CORP.Example'))).toBe(true);
  });

  it('joins at the same moment never pass the seats: the database decides', async () => {
    const org = await organization('三席商事', 3, ['three.example']);
    const admin = await reader('boss@elsewhere.example');
    await setOrganizationAdmin(database.db, org, admin.id, STAFF);
    const readers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => reader(`r${i}@three.example`)),
    );
    const answers = await Promise.all(readers.map(paid));
    expect(answers.filter(Boolean)).toHaveLength(3);
    const waiting = readers.filter((_, i) => !answers[i]);
    expect(await seatStanding(database.db, waiting[0]!.id)).toMatchObject({ status: 'waiting' });
    // Each reader left without a seat is reported to the organisation's admins, once.
    await Promise.all(waiting.map(paid));
    const mails = await database.db
      .select({ to: mailOutbox.to })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'organization-seats-full'));
    expect(mails).toHaveLength(5);
    expect(mails.every((m) => m.to === 'boss@elsewhere.example')).toBe(true);
  });
});

describe('leaving ends the access at once and frees the seat', () => {
  it('a removed member reads as free at once, their audience cookie is not trusted, and the next reader takes the seat', async () => {
    const org = await organization('一席工業', 1, ['one.example']);
    const admin = await reader('admin@one.example');
    await setOrganizationAdmin(database.db, org, admin.id, STAFF);
    const first = await reader('first@one.example');
    const second = await reader('second@one.example');
    expect(await paid(first)).toBe(true);
    expect(await paid(second)).toBe(false);

    const cookieSignedAt = Date.now() - 1;
    expect(await removeMember(database.db, org, first.id, { userId: admin.id, ip: null })).toBe(
      true,
    );
    // The front server's audience cookie signed before the removal no longer answers for them.
    expect(audienceChangedSince(first.id, cookieSignedAt)).toBe(true);
    expect(await paid(first)).toBe(false);
    // Removed: their domain does not bring them back; the waiting reader has the seat.
    expect(await paid(second)).toBe(true);
    expect(await paid(first)).toBe(false);
    const [audit] = await database.db
      .select({ actor: auditEvents.actor })
      .from(auditEvents)
      .where(eq(auditEvents.action, 'organization-member-removed'));
    expect(audit?.actor).toBe(`user:${admin.id}`);
  });

  it('changing the address away from the domain ends the seat at the next look', async () => {
    await organization('転職株式会社', 2, ['move.example']);
    const hanako = await reader('hanako@move.example');
    expect(await paid(hanako)).toBe(true);
    const since = Date.now() - 1;
    await database.db
      .update(user)
      .set({ email: 'hanako@private.example' })
      .where(eq(user.id, hanako.id));
    expect(await paid({ ...hanako, email: 'hanako@private.example' })).toBe(false);
    expect(audienceChangedSince(hanako.id, since)).toBe(true);
    const [row] = await database.db
      .select({ status: organizationMembers.status })
      .from(organizationMembers)
      .where(eq(organizationMembers.userId, hanako.id));
    expect(row?.status).toBe('left');
  });

  it('a reader waiting for a seat who changes their address waits no more', async () => {
    await organization('満席社', 1, ['full.example']);
    expect(await paid(await reader('first@full.example'))).toBe(true);
    const second = await reader('second@full.example');
    expect(await paid(second)).toBe(false);
    expect(await seatStanding(database.db, second.id)).toMatchObject({ status: 'waiting' });
    expect(await paid({ ...second, email: 'second@home.example' })).toBe(false);
    expect(await seatStanding(database.db, second.id)).toBeNull();
  });

  it('a domain taken away ends the seats it gave', async () => {
    const org = await organization('旧ドメイン社', 2, ['old.example', 'new.example']);
    const old = await reader('x@old.example');
    expect(await paid(old)).toBe(true);
    const saved = await updateOrganization(
      database.db,
      org,
      {
        name: '旧ドメイン社',
        addressee: '旧ドメイン社 御中',
        billingContactName: '経理',
        billingContactEmail: 'keiri@new.example',
        seats: 2,
        planKey: 'yearly',
        billing: 'card',
        domains: ['new.example'],
      },
      STAFF,
    );
    expect(saved).toEqual({ ok: true, id: org });
    expect(await paid(old)).toBe(false);
  });

  it('an invited address of any domain joins once confirmed, and seats cannot shrink mid-period', async () => {
    const org = await organization('招待社', 2, []);
    const admin = await reader('admin@invite.example');
    await inviteAddress(database.db, org, 'guest@gmail.example', { userId: admin.id, ip: null });
    expect(await paid(await reader('guest@gmail.example', false))).toBe(false);
    expect(await paid(await reader('other@gmail.example'))).toBe(false);
    const [invited] = await database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, 'guest@gmail.example'));
    expect(
      await paid({
        id: invited!.id,
        email: 'guest@gmail.example',
        name: 'g',
        role: 'member',
        emailVerified: true,
      }),
    ).toBe(true);
    const edit = (seats: number, renewalSeats?: number) =>
      updateOrganization(
        database.db,
        org,
        {
          name: '招待社',
          addressee: '招待社 御中',
          billingContactName: '経理',
          billingContactEmail: 'keiri@invite.example',
          seats,
          renewalSeats,
          planKey: 'monthly',
          billing: 'card',
          domains: [],
        },
        STAFF,
      );
    const refused = await edit(1);
    expect(refused?.ok === false && refused.fieldErrors.seats).toMatch(/次回更新からの席数/);
    const shrink = await edit(2, 1);
    expect(shrink?.ok).toBe(true);
  });
});

describe("an organisation's screen and report are its admins' alone", () => {
  it('another organisation’s admin and its members get the 404 for the CSV, the removal and the invitation', async () => {
    const a = await organization('A社', 3, ['a.example']);
    const b = await organization('B社', 3, ['b.example']);
    const adminA = await reader('admin@a.example');
    const adminB = await reader('admin@b.example');
    await setOrganizationAdmin(database.db, a, adminA.id, STAFF);
    await setOrganizationAdmin(database.db, b, adminB.id, STAFF);
    const memberB = await reader('m@b.example');
    expect(await paid(memberB)).toBe(true);
    await noteSeatRead(database.db, memberB.id, 'post-1', new Date());

    const as = (who: AppUser) =>
      organizationsHandlers({ db: database.db, viewer: () => Promise.resolve(who) });
    const csv = (who: AppUser, org: string) =>
      as(who).report(new Request(`http://localhost:3000/api/organization/report?org=${org}`));

    const own = await csv(adminB, b);
    expect(own.status).toBe(200);
    const body = await own.text();
    expect(body).toContain('m@b.example');
    expect(body).toMatch(/m@b\.example,利用中,1/);

    for (const [who, org] of [
      [adminA, b],
      [memberB, b],
      [adminA, 'not-a-uuid'],
    ] as const) {
      expect((await csv(who, org)).status).toBe(404);
    }
    const post = (fields: Record<string, string>) =>
      new Request('http://localhost:3000/api/organization/remove', {
        method: 'POST',
        headers: {
          origin: 'http://localhost:3000',
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams(fields),
      });
    expect((await as(adminA).remove(post({ org: b, user: memberB.id }))).status).toBe(404);
    expect((await as(memberB).remove(post({ org: b, user: memberB.id }))).status).toBe(404);
    expect(await paid(memberB)).toBe(true);
    const [still] = await database.db
      .select({ status: organizationMembers.status })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.userId, memberB.id)));
    expect(still?.status).toBe('active');
  });
});

describe('the monthly reading report', () => {
  it("counts a seat holder's post once a month from the page-view beacon, and nobody else's", async () => {
    const org = await organization('読書会社', 2, ['reads.example']);
    const admin = await reader('admin@reads.example');
    await setOrganizationAdmin(database.db, org, admin.id, STAFF);
    const member = await reader('member@reads.example');
    const outsider = await reader('outsider@else.example');
    expect(await paid(member)).toBe(true);
    const view = (who: AppUser, path: string) =>
      handleViewBeacon(
        new Request('http://localhost:3000/api/analytics/view', {
          method: 'POST',
          headers: {
            origin: 'http://localhost:3000',
            'content-type': 'text/plain;charset=UTF-8',
            'user-agent':
              'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/124.0 Safari/537.36',
            [CLIENT_IP_HEADER]: '198.51.100.7',
          },
          body: JSON.stringify({ path, visitorId: '11111111-1111-4111-8111-111111111111' }),
        }),
        {
          db: database.db,
          viewer: async () => ({ kind: 'member', paid: await paid(who) }),
          seatRead: (db, _headers, contentId, at) => noteSeatRead(db, who.id, contentId, at),
        },
      );
    for (const [who, path] of [
      [member, '/posts/one'],
      [member, '/posts/one'],
      [member, '/posts/two'],
      [member, '/about'],
      [outsider, '/posts/one'],
    ] as const)
      expect((await view(who, path)).status).toBe(204);
    const csv = await organizationsHandlers({
      db: database.db,
      viewer: () => Promise.resolve(admin),
    })
      .report(new Request(`http://localhost:3000/api/organization/report?org=${org}`))
      .then((r) => r.text());
    expect(csv).toMatch(/member@reads\.example,利用中,2\r\n/);
    expect(csv).not.toContain('outsider@else.example');
  });
});

describe('the revenue dashboard', () => {
  it('counts billed organisations in good standing apart, each seat at its plan’s monthly price', async () => {
    const plan = {
      productId: 'prod_x',
      name: 'p',
      currency: 'jpy',
      intervalCount: 1,
      active: true,
    };
    await database.db
      .insert(billingPlans)
      .values([
        { ...plan, key: 'monthly', priceId: 'price_m', amount: 1100, interval: 'month' },
        { ...plan, key: 'yearly', priceId: 'price_y', amount: 11000, interval: 'year' },
      ])
      .onConflictDoNothing();
    // Not billed yet (no subscription at the provider): not counted.
    expect(await organizationRevenue(database.db)).toEqual({
      organizations: 0,
      seats: 0,
      used: 0,
      mrr: 0,
    });
    await database.db.update(organizations).set({ providerSubscriptionId: 'sub_billed' });
    // One suspended for an invoice unpaid past the grace period: not counted either.
    const [late] = await listOrganizations(database.db);
    await database.db
      .update(organizations)
      .set({ overdueSince: new Date(Date.now() - 100 * 86_400_000) })
      .where(eq(organizations.id, late!.id));
    const orgs = (await listOrganizations(database.db)).filter((o) => o.id !== late!.id);
    const monthly = { monthly: 1100, yearly: 11000 / 12 } as Record<string, number>;
    expect(await organizationRevenue(database.db)).toEqual({
      organizations: orgs.length,
      seats: orgs.reduce((sum, o) => sum + o.seats, 0),
      used: orgs.reduce((sum, o) => sum + o.used, 0),
      mrr: Math.round(orgs.reduce((sum, o) => sum + o.seats * monthly[o.planKey]!, 0)),
    });
    await database.db
      .update(organizations)
      .set({ providerSubscriptionId: null, overdueSince: null });
  });
});

describe('/admin/organizations', () => {
  const form = (path: string, fields: Record<string, string>) =>
    new Request(`http://localhost:3000${path}`, {
      method: 'POST',
      headers: {
        origin: 'http://localhost:3000',
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: new URLSearchParams(fields),
    });
  const fields = {
    name: '管理画面商事',
    addressee: '管理画面商事 御中',
    billingContactName: '',
    billingContactEmail: '',
    seats: '5',
    renewalSeats: '',
    planKey: 'yearly',
    billing: 'invoice',
    domains: 'kanri.example, KANRI2.example',
  };

  it('an admin registers and edits an organisation; a member gets the 404', async () => {
    const staff = { ...(await reader('chief@site.example')), role: 'admin' as const };
    const as = (who: AppUser) =>
      organizationsHandlers({ db: database.db, viewer: () => Promise.resolve(who) });
    const nobody = await reader('nobody@site.example');
    expect((await as(nobody).create(form('/api/admin/organizations', fields))).status).toBe(404);

    const made = await as(staff).create(form('/api/admin/organizations', fields));
    expect(made.status).toBe(200);
    const org = (await listOrganizations(database.db)).find((o) => o.name === '管理画面商事')!;
    expect(org.domains).toEqual(['kanri.example', 'kanri2.example']);
    expect(org.billingContactEmail).toBeNull();

    const shrink = await as(staff).update(
      form(`/api/admin/organizations/${org.id}`, { ...fields, seats: '4' }),
      org.id,
    );
    expect(shrink.status).toBe(400);
    expect(JSON.stringify(await shrink.json())).toMatch(/期間の途中では減らせません/);
    const taken = await as(staff).create(
      form('/api/admin/organizations', { ...fields, name: '別会社', domains: 'kanri.example' }),
    );
    expect(taken.status).toBe(400);
    expect(JSON.stringify(await taken.json())).toMatch(/すでに「管理画面商事」のドメイン/);
  });
});
