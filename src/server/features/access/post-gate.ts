import 'server-only';
import { type Access, type Viewer, postAccess } from '@/lib/access/post-access';
import { findItem, getFreePlanPostIds, postSchema, siteContent } from '@/server/features/content';
import type { MeteredPost } from '@/server/features/metered';

/**
 * A post's gate as the front server can know it before the page cache (the amendment of
 * docs/decisions/055-metered-wall.md, "metered reads from the cache"): whether a free member
 * meets a paid plan's paywall on it (`paid-only`: what the metered wall may open), or not
 * (`open`: public, or in the free plan), or there is no such published post. Read through the
 * same content answers and the same policy as the post page (read.ts), so both agree; those
 * answers are the content service's cached ones, dropped by the changes of
 * docs/decisions/044-purge-what-a-change-showed.md. Asked by src/server/features/front/metered-page.ts.
 */
export type PostGate =
  { kind: 'missing' } | { kind: 'open' } | { kind: 'paid-only'; post: MeteredPost };

const FREE_MEMBER: Viewer = { kind: 'member', paid: false };

/** Whether the policy left a post closed to all but a paid plan (the metered wall's posts). */
export const closedToPlans = (access: Access) =>
  !access.full && access.cta.opensWith === 'subscribe';

export async function postGate(contentId: string): Promise<PostGate> {
  const found = await findItem('posts', postSchema, contentId);
  if (!found) return { kind: 'missing' };
  const freePlan = await getFreePlanPostIds(siteContent());
  if (!closedToPlans(postAccess(FREE_MEMBER, found, freePlan))) return { kind: 'open' };
  return { kind: 'paid-only', post: { id: found.id, createdAt: found.createdAt } };
}
