import 'server-only';
import { type Viewer, mediaAccess, postAccess } from '@/lib/access/post-access';
import type { SearchScope } from '@/server/services/cms/search-index';

/**
 * Which text a viewer's search may match, asked of the access policy (post-access.ts) rather
 * than restated: the full text where the viewer reads every item of a kind, otherwise the open
 * text plus the items the viewer reads whole. The policy decides a members' post by its id,
 * its flag and the free-plan list only, and a media item by its flag only; public-preview
 * items are open to everyone, so their open text is their full text (search-index.ts).
 */

const FULL: SearchScope = { kind: 'full' };
/** A members' post that is in no list: what a viewer reads of members' posts in general. */
const ANY_MEMBERS_POST = { id: '', isPublicPreview: false };

export function postsSearchScope(viewer: Viewer, freePlanPostIds: readonly string[]): SearchScope {
  if (postAccess(viewer, ANY_MEMBERS_POST, []).full) return FULL;
  const fullIds = freePlanPostIds.filter(
    (id) => postAccess(viewer, { id, isPublicPreview: false }, freePlanPostIds).full,
  );
  return { kind: 'open', fullIds };
}

/** Audio (transcript) and movies (embed): one rule for every item of the kind. */
export function mediaSearchScope(viewer: Viewer): SearchScope {
  return mediaAccess(viewer, { isPublicPreview: false }).full ? FULL : { kind: 'open' };
}
