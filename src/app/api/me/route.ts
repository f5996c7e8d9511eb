import { LOAD_FAILED, deriveAuthState } from '@/lib/auth-state';
import { billingNoticeOf } from '@/lib/billing-notice';
import { getDb } from '@/server/db/client';
import { userFromHeaders } from '@/server/identity/session-user';
import { loadIdentity } from '@/server/profiles/profiles';

export const dynamic = 'force-dynamic';

/**
 * The visitor's auth state (SPEC §3–4) for the client provider: pages are rendered per
 * audience and cached, so the per-user bits come from here
 * (docs/decisions/007-pages-per-audience.md). Beside it, `billingNotice`: 'past_due' when the
 * reader's renewal failed (the site-wide notice).
 */
export async function GET(request: Request): Promise<Response> {
  const user = await userFromHeaders(request.headers);
  const loaded = user ? await loadIdentity(await getDb(), user.id) : null;
  const state = deriveAuthState(
    loaded ?? { uid: null, publicProfile: null, privateProfile: null, subscriptions: [] },
  );
  const billingNotice =
    state.user && loaded && loaded.subscriptions !== LOAD_FAILED
      ? billingNoticeOf(loaded.subscriptions)
      : null;
  return Response.json(
    { ...state, role: user?.role ?? null, billingNotice },
    { headers: { 'cache-control': 'private, no-store', vary: 'cookie' } },
  );
}
