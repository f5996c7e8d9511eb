import 'server-only';
import { eq } from 'drizzle-orm';
import { recordAudit } from '@/server/platform/audit/audit-log';
import type { Db } from '@/server/platform/db/client';
import { organizationInvites, organizations } from '@/server/platform/db/schema';
import { mailInvite } from './mails';
import { endSeat } from './seats';

/**
 * What an organisation's admin does on its screen: invite an address, remove a member. The
 * caller has checked that the actor administers this very organisation (isOrganizationAdmin).
 */

/** Invites an address (already lower case): it takes a seat once its owner confirms it. */
export async function inviteAddress(
  db: Db,
  organizationId: string,
  email: string,
  actor: { userId: string; ip: string | null },
): Promise<void> {
  const [org] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  if (!org) return;
  const added = await db
    .insert(organizationInvites)
    .values({ organizationId, email, invitedBy: actor.userId })
    .onConflictDoNothing()
    .returning({ email: organizationInvites.email });
  await recordAudit(db, {
    actor: `user:${actor.userId}`,
    ip: actor.ip,
    action: 'organization-invited',
    target: `organization:${organizationId}`,
    detail: { email, again: added.length === 0 },
  });
  await mailInvite(db, email, org.name);
}

/** Removes a member: their access ends at once, and they join again only by invitation. */
export function removeMember(
  db: Db,
  organizationId: string,
  userId: string,
  actor: { userId: string; ip: string | null },
): Promise<boolean> {
  return endSeat(db, organizationId, userId, 'removed', `user:${actor.userId}`, actor.ip);
}
