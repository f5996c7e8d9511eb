import 'server-only';
import { and, count, eq, inArray, sql } from 'drizzle-orm';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import {
  organizationDomains,
  organizationInvites,
  organizationMembers,
  organizations,
} from '@/server/platform/db/schema';
import { noteAudienceChange } from '@/server/features/audience';
import { addressDomain } from './domains';
import { mailAdminsSeatsFull } from './mails';
import { seatsSuspended } from './standing';

/**
 * Seats (docs/decisions/058-organizations.md). A reader holds one while their membership is
 * `active` and its address is still their confirmed address: an address changed or unconfirmed
 * ends it at the next look, whatever ran before. Taking a seat is decided in the database: the
 * organisation's row is locked, its active members counted and the reader added in one
 * transaction, so joins at the same moment never pass the seats.
 */

export type SeatReader = { id: string; email: string; emailVerified: boolean };

/** Last visits are written at most this often (the look runs on every uncached request). */
const LAST_SEEN_EVERY_MS = 60 * 60 * 1000;

const lower = (email: string) => email.trim().toLowerCase();

/**
 * Whether the reader holds a seat now, taking one that their confirmed address entitles them to
 * (an allowed domain, or an admin's invitation) while seats remain. The access policy's one
 * question about organisations (src/server/features/access/request-viewer.ts).
 */
export async function organizationSeat(
  db: Db,
  reader: SeatReader,
  now: Date = new Date(),
): Promise<boolean> {
  const email = lower(reader.email);
  const rows = await db
    .select({
      organizationId: organizationMembers.organizationId,
      email: organizationMembers.email,
      status: organizationMembers.status,
      lastSeenAt: organizationMembers.lastSeenAt,
      // How the organisation pays, and its standing, read with the seat (no query of its own).
      overdueSince: organizations.overdueSince,
      billing: organizations.billing,
      subscriptionId: organizations.providerSubscriptionId,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(eq(organizationMembers.userId, reader.id));
  const active = rows.find((row) => row.status === 'active');
  if (active) {
    if (active.email === email && reader.emailVerified) {
      if (!active.lastSeenAt || now.getTime() - active.lastSeenAt.getTime() > LAST_SEEN_EVERY_MS)
        await touch(db, active.organizationId, reader.id, now);
      return seatsRead(active, now);
    }
    await endSeat(db, active.organizationId, reader.id, 'left', `user:${reader.id}`, null);
  }
  const target = reader.emailVerified ? await organizationFor(db, email) : null;
  // A wait the reader's address no longer stands in (changed, or another organisation's now).
  for (const wait of rows)
    if (
      wait.status === 'waiting' &&
      (wait.organizationId !== target?.organizationId || wait.email !== email)
    )
      await endSeat(db, wait.organizationId, reader.id, 'left', `user:${reader.id}`, null);
  if (!target) return false;
  const row = rows.find((r) => r.organizationId === target.organizationId);
  // Removed by an admin: only a new invitation lets them in again.
  if (row?.status === 'removed' && target.via === 'domain') return false;
  // Still waiting, and still no seat: nothing to write.
  if (row?.status === 'waiting' && row.email === email && (await full(db, target.organizationId)))
    return false;
  if ((await takeSeat(db, target.organizationId, reader.id, email, target.via, now)) !== 'joined')
    return false;
  const [joined] = await db
    .select({
      overdueSince: organizations.overdueSince,
      billing: organizations.billing,
      subscriptionId: organizations.providerSubscriptionId,
    })
    .from(organizations)
    .where(eq(organizations.id, target.organizationId));
  return !!joined && seatsRead(joined, now);
}

/**
 * Whether an organisation's seats give access now: a card organisation's while its card
 * subscription runs (from its first payment to its end); an invoice organisation's unless an
 * invoice is unpaid past the grace period (the seats are kept, and read again once it is paid).
 */
function seatsRead(
  org: { billing: string; subscriptionId: string | null; overdueSince: Date | null },
  now: Date,
): boolean {
  if (org.billing === 'card' && org.subscriptionId === null) return false;
  return !seatsSuspended(org.overdueSince, now);
}

/** The organisation a confirmed address may join: its invitation first, else its domain's. */
async function organizationFor(
  db: Db,
  email: string,
): Promise<{ organizationId: string; via: 'domain' | 'invite' } | null> {
  const domain = addressDomain(email) ?? '';
  const [found] = await db
    .select({
      organizationId: organizationInvites.organizationId,
      via: sql<'domain' | 'invite'>`'invite'`,
    })
    .from(organizationInvites)
    .where(eq(organizationInvites.email, email))
    .unionAll(
      db
        .select({
          organizationId: organizationDomains.organizationId,
          via: sql<'domain' | 'invite'>`'domain'`,
        })
        .from(organizationDomains)
        .where(eq(organizationDomains.domain, domain)),
    )
    .orderBy(sql`2 DESC`)
    .limit(1);
  return found ?? null;
}

async function full(db: Db, organizationId: string): Promise<boolean> {
  const [row] = await db
    .select({ seats: organizations.seats, used: activeCount(organizationId) })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return !row || row.used >= row.seats;
}

const activeCount = (organizationId: string) =>
  sql<number>`(SELECT count(*)::int FROM ${organizationMembers} WHERE ${organizationMembers.organizationId} = ${organizationId} AND ${organizationMembers.status} = 'active')`;

/**
 * Takes a seat in one transaction: the organisation's row locked (FOR UPDATE) so that every
 * other join waits, its active members counted after the lock, the reader made active or, when
 * none is left, waiting (the admins are mailed the first time).
 */
async function takeSeat(
  db: Db,
  organizationId: string,
  userId: string,
  email: string,
  via: 'domain' | 'invite',
  now: Date,
): Promise<'joined' | 'full'> {
  const outcome = await db.transaction(async (tx) => {
    const [org] = await tx
      .select({ seats: organizations.seats, name: organizations.name })
      .from(organizations)
      .where(eq(organizations.id, organizationId))
      .for('update');
    if (!org) return null;
    const [used] = await tx
      .select({ n: count() })
      .from(organizationMembers)
      .where(
        and(
          eq(organizationMembers.organizationId, organizationId),
          eq(organizationMembers.status, 'active'),
        ),
      );
    const status = (used?.n ?? 0) < org.seats ? ('active' as const) : ('waiting' as const);
    const [before] = await tx
      .select({ status: organizationMembers.status, email: organizationMembers.email })
      .from(organizationMembers)
      .where(
        and(
          eq(organizationMembers.organizationId, organizationId),
          eq(organizationMembers.userId, userId),
        ),
      );
    const values = { status, email, via, since: now, lastSeenAt: status === 'active' ? now : null };
    await tx
      .insert(organizationMembers)
      .values({ organizationId, userId, ...values })
      .onConflictDoUpdate({
        target: [organizationMembers.organizationId, organizationMembers.userId],
        set: values,
      });
    const newlyWaiting =
      status === 'waiting' && !(before?.status === 'waiting' && before.email === email);
    await recordAudit(tx, {
      actor: `user:${userId}`,
      action: status === 'active' ? 'organization-seat-taken' : 'organization-seats-full',
      target: `organization:${organizationId}`,
      detail: { via, email, seats: org.seats },
    });
    return { status, newlyWaiting, name: org.name };
  });
  if (!outcome) return 'full';
  if (outcome.status === 'active') {
    noteAudienceChange(userId);
    return 'joined';
  }
  if (outcome.newlyWaiting) await mailAdminsSeatsFull(db, organizationId, outcome.name, email);
  return 'full';
}

async function touch(db: Db, organizationId: string, userId: string, now: Date): Promise<void> {
  await db
    .update(organizationMembers)
    .set({ lastSeenAt: now })
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.userId, userId),
      ),
    );
}

/**
 * Ends a reader's seat (or their wait) at once: `left` when their address no longer entitles
 * them, `removed` by an admin (their invitations in that organisation go too). The audience
 * cookie signed before is not trusted any more (audienceChangedSince,
 * docs/decisions/046-one-request-pipeline.md),
 * so their next request is the free members' page, and the seat is free for the next reader.
 */
export async function endSeat(
  db: Db,
  organizationId: string,
  userId: string,
  status: 'left' | 'removed',
  actor: string,
  ip: string | null,
): Promise<boolean> {
  const ended = await db
    .update(organizationMembers)
    .set({ status })
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.userId, userId),
        inArray(organizationMembers.status, ['active', 'waiting']),
      ),
    )
    .returning({ email: organizationMembers.email });
  if (ended.length === 0) return false;
  if (status === 'removed') {
    await db
      .delete(organizationInvites)
      .where(
        and(
          eq(organizationInvites.organizationId, organizationId),
          eq(organizationInvites.email, ended[0]!.email),
        ),
      );
  }
  noteAudienceChange(userId);
  await recordAudit(db, {
    actor,
    action: status === 'removed' ? 'organization-member-removed' : 'organization-member-left',
    target: `organization:${organizationId}`,
    ip,
    detail: { userId, email: ended[0]!.email },
  });
  return true;
}

/** Where a reader stands with an organisation, for their account page. */
export type SeatStanding = {
  organizationName: string;
  status: 'active' | 'waiting';
};

export async function seatStanding(db: Db, userId: string): Promise<SeatStanding | null> {
  const [row] = await db
    .select({ organizationName: organizations.name, status: organizationMembers.status })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(
      and(
        eq(organizationMembers.userId, userId),
        inArray(organizationMembers.status, ['active', 'waiting']),
      ),
    )
    .orderBy(sql`${organizationMembers.status} = 'active' DESC`)
    .limit(1);
  return row
    ? { organizationName: row.organizationName, status: row.status as SeatStanding['status'] }
    : null;
}
