import 'server-only';
import { and, asc, desc, eq, inArray, isNotNull, isNull, notInArray, or, sql } from 'drizzle-orm';
import { env } from '@/env';
import { z } from '@/lib/zod';
import { PLAN_KEYS } from '@/lib/billing/plans';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import {
  billingPlans,
  organizationAdmins,
  organizationDomains,
  organizationMembers,
  organizations,
  user,
} from '@/server/platform/db/schema';
import { emailField } from '@/server/features/identity';
import { normalizeAllowedDomain } from './domains';
import { endSeat } from './seats';

/**
 * Organisations as staff keep them (/admin/organizations, the admin CLI): name, 宛名, billing
 * contact, seats (and the seats from renewal), allowed domains, plan and how it pays. Every
 * change is audited with its actor. Seats are added at once; fewer seats take effect at renewal
 * (`renewalSeats`, applied by applySeatRenewal).
 */

const text = (label: string, max: number) =>
  z
    .string({ error: `${label}を入力してください。` })
    .trim()
    .min(1, `${label}を入力してください。`)
    .max(max, `${label}は ${max} 文字以内にしてください。`);

const seatCount = (label: string) =>
  z.coerce
    .number({ error: `${label}は数字で入力してください。` })
    .int(`${label}は整数で入力してください。`)
    .min(1, `${label}は 1 以上にしてください。`)
    .max(10000, `${label}は 10000 以下にしてください。`);

export const organizationInput = z.object({
  name: text('法人名', 100),
  addressee: text('宛名', 120),
  billingContactName: z.preprocess(
    (v) => (v === '' ? undefined : v),
    text('請求先のご担当者名', 60).optional(),
  ),
  billingContactEmail: z.preprocess((v) => (v === '' ? undefined : v), emailField.optional()),
  seats: seatCount('席数'),
  renewalSeats: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    seatCount('次回更新からの席数').optional(),
  ),
  planKey: z.enum(PLAN_KEYS, { error: 'プランを選んでください。' }),
  billing: z.enum(['card', 'invoice'], { error: '支払い方法を選んでください。' }),
  domains: z
    .array(z.string())
    .max(20, 'ドメインは 20 個までです。')
    .transform((typed, ctx) => {
      const out: string[] = [];
      for (const value of typed.map((d) => d.trim()).filter(Boolean)) {
        const domain = normalizeAllowedDomain(value);
        if (!domain)
          ctx.addIssue({ code: 'custom', message: `「${value}」はドメインではありません。` });
        else if (!out.includes(domain)) out.push(domain);
      }
      return out;
    }),
});
export type OrganizationInput = z.output<typeof organizationInput>;

export type Organization = typeof organizations.$inferSelect & { domains: string[] };
export type SaveResult =
  { ok: true; id: string } | { ok: false; fieldErrors: Record<string, string> };

const UUID = z.uuid();

/** Optional fields left empty are stored as null (cleared on an edit). */
const nullable = (fields: Omit<OrganizationInput, 'domains'>) => ({
  renewalSeats: fields.renewalSeats ?? null,
  billingContactName: fields.billingContactName ?? null,
  billingContactEmail: fields.billingContactEmail ?? null,
});

/** The organisation, with its domains, or null (an id that is not one is simply not found). */
export async function organizationById(db: Db, id: string): Promise<Organization | null> {
  if (!UUID.safeParse(id).success) return null;
  const [org] = await db.select().from(organizations).where(eq(organizations.id, id));
  if (!org) return null;
  const domains = await db
    .select({ domain: organizationDomains.domain })
    .from(organizationDomains)
    .where(eq(organizationDomains.organizationId, id))
    .orderBy(asc(organizationDomains.domain));
  return { ...org, domains: domains.map((d) => d.domain) };
}

/** Domains another organisation holds: a field error naming it. */
async function takenDomains(db: Db, domains: string[], exceptId: string | null) {
  if (domains.length === 0) return null;
  const taken = await db
    .select({ domain: organizationDomains.domain, name: organizations.name })
    .from(organizationDomains)
    .innerJoin(organizations, eq(organizations.id, organizationDomains.organizationId))
    .where(
      and(
        inArray(organizationDomains.domain, domains),
        exceptId ? sql`${organizationDomains.organizationId} <> ${exceptId}` : undefined,
      ),
    );
  if (taken.length === 0) return null;
  return {
    domains: taken
      .map((t) => `${t.domain} はすでに「${t.name}」のドメインとして登録されています。`)
      .join(' '),
  };
}

export async function createOrganization(
  db: Db,
  input: OrganizationInput,
  actor: { actor: string; ip?: string | null },
): Promise<SaveResult> {
  const taken = await takenDomains(db, input.domains, null);
  if (taken) return { ok: false, fieldErrors: taken };
  const { domains, ...fields } = input;
  const id = await db.transaction(async (tx) => {
    const [made] = await tx
      .insert(organizations)
      .values({ ...fields, ...nullable(fields) })
      .returning({ id: organizations.id });
    if (domains.length > 0)
      await tx
        .insert(organizationDomains)
        .values(domains.map((domain) => ({ domain, organizationId: made!.id })));
    await recordAudit(tx, {
      actor: actor.actor,
      ip: actor.ip ?? null,
      action: 'organization-created',
      target: `organization:${made!.id}`,
      detail: { ...input },
    });
    return made!.id;
  });
  return { ok: true, id };
}

/**
 * Saves staff's edit. Seats may grow at once; fewer seats than now are refused here and go to
 * `renewalSeats`. A domain taken away ends the seats of the members who joined by it.
 */
export async function updateOrganization(
  db: Db,
  id: string,
  input: OrganizationInput,
  actor: { actor: string; ip?: string | null },
): Promise<SaveResult | null> {
  const before = await organizationById(db, id);
  if (!before) return null;
  if (input.seats < before.seats)
    return {
      ok: false,
      fieldErrors: {
        seats: `席数は期間の途中では減らせません（いまは ${before.seats} 席）。減らす席数は「次回更新からの席数」に入れてください。`,
      },
    };
  const taken = await takenDomains(db, input.domains, id);
  if (taken) return { ok: false, fieldErrors: taken };
  const { domains, ...fields } = input;
  const dropped = before.domains.filter((d) => !domains.includes(d));
  await db.transaction(async (tx) => {
    await tx
      .update(organizations)
      .set({ ...fields, ...nullable(fields), updatedAt: new Date() })
      .where(eq(organizations.id, id));
    await tx
      .delete(organizationDomains)
      .where(
        and(
          eq(organizationDomains.organizationId, id),
          domains.length > 0 ? notInArray(organizationDomains.domain, domains) : undefined,
        ),
      );
    if (domains.length > 0)
      await tx
        .insert(organizationDomains)
        .values(domains.map((domain) => ({ domain, organizationId: id })))
        .onConflictDoNothing();
    await recordAudit(tx, {
      actor: actor.actor,
      ip: actor.ip ?? null,
      action: 'organization-updated',
      target: `organization:${id}`,
      detail: { before: { ...before, createdAt: undefined, updatedAt: undefined }, after: input },
    });
  });
  if (dropped.length > 0) {
    const members = await db
      .select({ userId: organizationMembers.userId, email: organizationMembers.email })
      .from(organizationMembers)
      .where(
        and(
          eq(organizationMembers.organizationId, id),
          eq(organizationMembers.via, 'domain'),
          inArray(organizationMembers.status, ['active', 'waiting']),
        ),
      );
    for (const m of members)
      if (dropped.some((d) => m.email.endsWith(`@${d}`)))
        await endSeat(db, id, m.userId, 'left', actor.actor, actor.ip ?? null);
  }
  return { ok: true, id };
}

/**
 * The renewal's seats (called when the period renews): `renewalSeats` become the seats. Members
 * past them, the latest to join first, wait for a seat again (their access ends at once).
 */
export async function applySeatRenewal(db: Db, id: string, actor: string): Promise<void> {
  const org = await organizationById(db, id);
  if (!org?.renewalSeats) return;
  await db
    .update(organizations)
    .set({ seats: org.renewalSeats, renewalSeats: null, updatedAt: new Date() })
    .where(eq(organizations.id, id));
  const active = await db
    .select({ userId: organizationMembers.userId })
    .from(organizationMembers)
    .where(
      and(eq(organizationMembers.organizationId, id), eq(organizationMembers.status, 'active')),
    )
    .orderBy(desc(organizationMembers.since));
  for (const member of active.slice(0, Math.max(0, active.length - org.renewalSeats)))
    await endSeat(db, id, member.userId, 'left', actor, null);
  await recordAudit(db, {
    actor,
    action: 'organization-seats-renewed',
    target: `organization:${id}`,
    detail: { from: org.seats, to: org.renewalSeats },
  });
}

/** Makes a reader one of the organisation's admins (they see /account/organization). */
export async function setOrganizationAdmin(
  db: Db,
  organizationId: string,
  userId: string,
  actor: { actor: string; ip?: string | null },
): Promise<void> {
  await db.insert(organizationAdmins).values({ organizationId, userId }).onConflictDoNothing();
  await recordAudit(db, {
    actor: actor.actor,
    ip: actor.ip ?? null,
    action: 'organization-admin-set',
    target: `organization:${organizationId}`,
    detail: { userId },
  });
}

export type OrganizationSummary = Organization & { used: number; admins: string[] };

/** Every organisation with its seats used and its admins' addresses, newest first (staff). */
export async function listOrganizations(db: Db): Promise<OrganizationSummary[]> {
  const orgs = await db.select().from(organizations).orderBy(desc(organizations.createdAt));
  if (orgs.length === 0) return [];
  const ids = orgs.map((o) => o.id);
  const [domains, used, admins] = await Promise.all([
    db
      .select()
      .from(organizationDomains)
      .where(inArray(organizationDomains.organizationId, ids))
      .orderBy(asc(organizationDomains.domain)),
    db
      .select({ id: organizationMembers.organizationId, n: sql<number>`count(*)::int` })
      .from(organizationMembers)
      .where(
        and(
          inArray(organizationMembers.organizationId, ids),
          eq(organizationMembers.status, 'active'),
        ),
      )
      .groupBy(organizationMembers.organizationId),
    db
      .select({ id: organizationAdmins.organizationId, email: user.email })
      .from(organizationAdmins)
      .innerJoin(user, eq(user.id, organizationAdmins.userId))
      .where(inArray(organizationAdmins.organizationId, ids)),
  ]);
  return orgs.map((o) => ({
    ...o,
    domains: domains.filter((d) => d.organizationId === o.id).map((d) => d.domain),
    used: used.find((u) => u.id === o.id)?.n ?? 0,
    admins: admins.filter((a) => a.id === o.id).map((a) => a.email),
  }));
}

/** The organisations this reader administers (their screen shows the first, or the one asked). */
export async function organizationsAdministeredBy(
  db: Db,
  userId: string,
): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizationAdmins)
    .innerJoin(organizations, eq(organizations.id, organizationAdmins.organizationId))
    .where(eq(organizationAdmins.userId, userId))
    .orderBy(asc(organizations.name));
}

/** Whether the reader is an admin of that very organisation: every admin route asks this. */
export async function isOrganizationAdmin(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<boolean> {
  if (!UUID.safeParse(organizationId).success) return false;
  const [row] = await db
    .select({ userId: organizationAdmins.userId })
    .from(organizationAdmins)
    .where(
      and(
        eq(organizationAdmins.organizationId, organizationId),
        eq(organizationAdmins.userId, userId),
      ),
    );
  return Boolean(row);
}

export type MemberRow = {
  userId: string;
  name: string;
  email: string;
  status: 'active' | 'waiting';
  via: 'domain' | 'invite';
  since: Date;
  lastSeenAt: Date | null;
};

/** The members holding or waiting for a seat, seat holders first. */
export async function listMembers(db: Db, organizationId: string): Promise<MemberRow[]> {
  const rows = await db
    .select({
      userId: organizationMembers.userId,
      name: user.name,
      email: organizationMembers.email,
      status: organizationMembers.status,
      via: organizationMembers.via,
      since: organizationMembers.since,
      lastSeenAt: organizationMembers.lastSeenAt,
    })
    .from(organizationMembers)
    .innerJoin(user, eq(user.id, organizationMembers.userId))
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        inArray(organizationMembers.status, ['active', 'waiting']),
      ),
    )
    .orderBy(sql`${organizationMembers.status} = 'active' DESC`, asc(organizationMembers.email));
  return rows as MemberRow[];
}

/**
 * Organisations and their seats per plan, for the revenue dashboard: counted apart from the
 * individual plans, each seat at the plan's monthly equivalent (docs/decisions/058-organizations.md).
 * Only organisations whose billing is current count: billed by a subscription at the provider
 * (an invoice organisation from its registration, a card one once it has paid at the
 * checkout), and not suspended for an invoice unpaid past the grace period (a late one within
 * it still counts: its seats still read).
 */
export async function organizationRevenue(
  db: Db,
  now = new Date(),
  graceDays = env().INVOICE_GRACE_DAYS,
): Promise<{
  organizations: number;
  seats: number;
  used: number;
  mrr: number;
}> {
  const [row] = await db
    .select({
      organizations: sql<number>`count(*)::int`,
      seats: sql<number>`coalesce(sum(${organizations.seats}), 0)::int`,
      used: sql<number>`coalesce(sum((SELECT count(*) FROM ${organizationMembers} WHERE ${organizationMembers.organizationId} = ${organizations.id} AND ${organizationMembers.status} = 'active')), 0)::int`,
      // Each seat at its plan's price per month: a year's price is divided by 12.
      mrr: sql<number>`coalesce(round(sum(${organizations.seats} * ${billingPlans.amount}::numeric / (CASE ${billingPlans.interval} WHEN 'year' THEN 12 ELSE 1 END * ${billingPlans.intervalCount}))), 0)::int`,
    })
    .from(organizations)
    .leftJoin(billingPlans, eq(billingPlans.key, organizations.planKey))
    .where(
      and(
        isNotNull(organizations.providerSubscriptionId),
        or(
          isNull(organizations.overdueSince),
          sql`${organizations.overdueSince} + make_interval(days => ${graceDays}) > ${now.toISOString()}::timestamptz`,
        ),
      ),
    );
  return row ?? { organizations: 0, seats: 0, used: 0, mrr: 0 };
}
