import 'server-only';
import type { ContentRef } from '@/server/features/attribution';
import {
  audioSchema,
  connectSchema,
  findItem,
  getFreePlanPostIds,
  movieSchema,
  postSchema,
  siteContent,
} from '@/server/features/content';
import { type Viewer, connectAccess, mediaAccess, postAccess } from '@/lib/access/post-access';

/**
 * Whether the item's page shows this viewer its paywall, decided by the access policy from the
 * published item, as read.ts decides it for the page. The view beacon asks it before it counts
 * a paywall view, so that a browser's claim counts only where the server would have cut the
 * item for that viewer.
 */
export async function paywallShown(viewer: Viewer, ref: ContentRef): Promise<boolean> {
  switch (ref.endpoint) {
    case 'posts': {
      const post = await findItem('posts', postSchema, ref.contentId);
      if (!post) return false;
      const freePlan = await getFreePlanPostIds(siteContent());
      return !postAccess(viewer, post, freePlan).full;
    }
    case 'audios':
    case 'movies': {
      const schema = ref.endpoint === 'audios' ? audioSchema : movieSchema;
      const item = await findItem(ref.endpoint, schema, ref.contentId);
      return item !== null && !mediaAccess(viewer, item).full;
    }
    case 'connect': {
      const page = await findItem('connect', connectSchema, ref.contentId);
      return page !== null && !connectAccess(viewer).full;
    }
    default:
      return false;
  }
}
