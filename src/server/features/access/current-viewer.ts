import 'server-only';
import { cache } from 'react';
import { sessionUser } from '@/server/features/identity';
import { audienceOf, noteAudience } from '@/server/features/audience';
import type { Viewer } from '@/lib/access/post-access';
import { viewerForUser } from './request-viewer';

/**
 * The viewer of the page being rendered, once per request. Its audience is noted for the page
 * cache (src/server/features/audience/render-record.ts): the answer is filed under it, and only it.
 */
export const currentViewer = cache(async (): Promise<Viewer> => {
  const viewer = await viewerForUser(await sessionUser());
  noteAudience(audienceOf(viewer));
  return viewer;
});
