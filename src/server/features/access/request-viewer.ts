import 'server-only';
import { getDb } from '@/server/platform/db/client';
import { STAFF_ROLES } from '@/lib/identity/roles';
import { type AppUser, userFromHeaders } from '@/server/features/identity';
import { listSubscriptions } from '@/server/features/profiles';
import { organizationSeat } from '@/server/features/organizations';
import { type Viewer, viewerOf } from '@/lib/access/post-access';

/**
 * The policy's viewer for a signed-in user (or nobody): staff by role, else by their plans. A
 * seat in an organisation (法人プラン, docs/decisions/058-organizations.md) counts as a paid plan
 * here, the one place it does: a reader holding one is a paid member.
 */
export async function viewerForUser(user: AppUser | null): Promise<Viewer> {
  // Staff read everything: their plans are not read.
  if (!user || STAFF_ROLES.includes(user.role)) return viewerOf(user, []);
  const db = await getDb();
  const [plans, seat] = await Promise.all([
    listSubscriptions(db, user.id),
    organizationSeat(db, user),
  ]);
  return seat ? { kind: 'member', paid: true } : viewerOf(user, plans);
}

/** The viewer of a request, from its session (the front server and route handlers). */
export async function viewerFromHeaders(requestHeaders: Headers): Promise<Viewer> {
  return viewerForUser(await userFromHeaders(requestHeaders));
}
