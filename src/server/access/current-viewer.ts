import 'server-only';
import { getAuthState, getUser, isStaff } from '@/server/identity/session';
import type { Viewer } from './post-access';

/** The viewer of the page being rendered, for the access policy (from the session). */
export async function currentViewer(previewDraftKey?: string): Promise<Viewer> {
  if (previewDraftKey) return { kind: 'preview' };
  const user = await getUser();
  if (!user) return { kind: 'anonymous' };
  if (isStaff(user)) return { kind: 'staff' };
  return { kind: 'member', paid: (await getAuthState()).isPaidUser };
}
