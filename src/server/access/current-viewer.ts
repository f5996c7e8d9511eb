import 'server-only';
import { cache } from 'react';
import { sessionUser } from '@/server/identity/session';
import { audienceOf } from './audience';
import type { Viewer } from './post-access';
import { noteAudience } from './render-record';
import { viewerForUser } from './request-viewer';

/**
 * The viewer of the page being rendered, once per request. Its audience is noted for the page
 * cache (src/server/access/render-record.ts): the answer is filed under it, and only it.
 */
export const currentViewer = cache(async (): Promise<Viewer> => {
  const viewer = await viewerForUser(await sessionUser());
  noteAudience(audienceOf(viewer));
  return viewer;
});
