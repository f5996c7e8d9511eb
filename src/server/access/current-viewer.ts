import 'server-only';
import { getAuthState, getUser, isStaff } from '@/server/identity/session';
import { type Viewer, viewerOf } from './post-access';

/** The viewer of the page being rendered, for the access policy (from the session). */
export async function currentViewer(previewDraftKey?: string): Promise<Viewer> {
  if (previewDraftKey) return { kind: 'preview' };
  const user = await getUser();
  // Staff read everything: their plan is not read.
  const auth = user && !isStaff(user) ? await getAuthState() : { isPaidUser: false };
  return viewerOf(user, auth);
}
