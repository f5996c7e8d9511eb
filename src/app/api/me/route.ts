import { LOAD_FAILED, deriveAuthState } from '@/lib/auth-state';
import { readerBillingNotice } from '@/server/features/billing/reader-notices';
import { getDb } from '@/server/platform/db/client';
import { userFromHeaders } from '@/server/features/identity/session-user';
import { loadIdentity } from '@/server/features/profiles/profiles';

export const dynamic = 'force-dynamic';

/**
 * The visitor's auth state (SPEC §3–4) for the client provider: pages are rendered per
 * audience and cached, so the per-user bits come from here
 * (docs/decisions/007-pages-per-audience.md). Beside it, `billingNotice`: the reader's failed
 * renewal (amount, next retry) or, once, the end of their plan (src/lib/billing-notice.ts). A
 * notice that cannot be worked out is left out: the state still answers.
 */
export async function GET(request: Request): Promise<Response> {
  const user = await userFromHeaders(request.headers);
  const loaded = user ? await loadIdentity(await getDb(), user.id) : null;
  const state = deriveAuthState(
    loaded ?? { uid: null, publicProfile: null, privateProfile: null, subscriptions: [] },
  );
  const billingNotice =
    user && state.user && loaded && loaded.subscriptions !== LOAD_FAILED
      ? await readerBillingNotice(await getDb(), user.id).catch((error: unknown) => {
          console.warn('[billing] the billing notice could not be worked out:', error);
          return null;
        })
      : null;
  return Response.json(
    { ...state, role: user?.role ?? null, billingNotice },
    { headers: { 'cache-control': 'private, no-store', vary: 'cookie' } },
  );
}
