import 'server-only';
import { headers } from 'next/headers';
import { cache } from 'react';
import { getDb } from '@/server/db/client';
import { type AppUser, isStaff, sessionUser, userFromHeaders } from '@/server/identity/session';
import { listSubscriptions } from '@/server/profiles/subscriptions';
import { audienceOf } from './audience';
import { type Viewer, viewerOf } from './post-access';
import { noteAudience } from './render-audience';

/** The policy's viewer for a signed-in user (or nobody): staff by role, else by their plans. */
async function viewerForUser(user: AppUser | null): Promise<Viewer> {
  // Staff read everything: their plans are not read.
  if (!user || isStaff(user)) return viewerOf(user, []);
  return viewerOf(user, await listSubscriptions(await getDb(), user.id));
}

/** The viewer of a request, from its session (the front server and route handlers). */
export async function viewerFromHeaders(requestHeaders: Headers): Promise<Viewer> {
  return viewerForUser(await userFromHeaders(requestHeaders));
}

/**
 * The viewer of the page being rendered, once per request. Its audience is noted for the page
 * cache (src/server/access/render-audience.ts): the answer is filed under it, and only it.
 */
export const currentViewer = cache(async (): Promise<Viewer> => {
  const viewer = await viewerForUser(await sessionUser());
  noteAudience(await headers(), audienceOf(viewer));
  return viewer;
});
