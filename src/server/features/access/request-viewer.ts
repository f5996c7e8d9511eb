import 'server-only';
import { getDb } from '@/server/platform/db/client';
import { STAFF_ROLES } from '@/lib/identity/roles';
import { type AppUser, userFromHeaders } from '@/server/features/identity';
import { listSubscriptions } from '@/server/features/profiles';
import { type Viewer, viewerOf } from '@/lib/access/post-access';

/** The policy's viewer for a signed-in user (or nobody): staff by role, else by their plans. */
export async function viewerForUser(user: AppUser | null): Promise<Viewer> {
  // Staff read everything: their plans are not read.
  if (!user || STAFF_ROLES.includes(user.role)) return viewerOf(user, []);
  return viewerOf(user, await listSubscriptions(await getDb(), user.id));
}

/** The viewer of a request, from its session (the front server and route handlers). */
export async function viewerFromHeaders(requestHeaders: Headers): Promise<Viewer> {
  return viewerForUser(await userFromHeaders(requestHeaders));
}
