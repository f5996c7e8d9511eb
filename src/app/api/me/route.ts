import { authStateFor } from '@/server/identity/session';
import { userFromHeaders } from '@/server/identity/session-user';

export const dynamic = 'force-dynamic';

/**
 * The visitor's auth state (SPEC §3–4) for the client provider: pages are rendered per
 * audience and cached, so the per-user bits come from here (DESIGN.md decision 6).
 */
export async function GET(request: Request): Promise<Response> {
  const user = await userFromHeaders(request.headers);
  const state = await authStateFor(user?.id ?? null);
  return Response.json(
    { ...state, role: user?.role ?? null },
    { headers: { 'cache-control': 'private, no-store', vary: 'cookie' } },
  );
}
