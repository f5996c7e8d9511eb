import { deriveAuthState } from '@/lib/auth-state';
import { getDb } from '@/server/platform/db/client';
import { userFromHeaders } from '@/server/features/identity/session-user';
import { loadIdentity } from '@/server/features/profiles/profiles';

export const dynamic = 'force-dynamic';

/**
 * The visitor's auth state (SPEC §3–4) for the client provider: pages are rendered per
 * audience and cached, so the per-user bits come from here
 * (docs/decisions/007-pages-per-audience.md). The reader's billing notice is not here: it is in
 * the page as the server sends it (src/components/billing/billing-notice-banner.tsx).
 */
export async function GET(request: Request): Promise<Response> {
  const user = await userFromHeaders(request.headers);
  const loaded = user ? await loadIdentity(await getDb(), user.id) : null;
  const state = deriveAuthState(
    loaded ?? { uid: null, publicProfile: null, privateProfile: null, subscriptions: [] },
  );
  return Response.json(
    { ...state, role: user?.role ?? null },
    { headers: { 'cache-control': 'private, no-store', vary: 'cookie' } },
  );
}
