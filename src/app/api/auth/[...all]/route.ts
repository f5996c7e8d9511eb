import { appAuth } from '@/server/identity/app-auth';

export const dynamic = 'force-dynamic';

/**
 * better-auth over HTTP, limited to the link in the verification mails (sign-up and e-mail
 * change). Every other account action goes through /api/account/{flow}, which validates,
 * rate limits and audits before calling better-auth on the server.
 */
const EXPOSED = new Set(['/api/auth/verify-email']);

export async function GET(request: Request): Promise<Response> {
  if (!EXPOSED.has(new URL(request.url).pathname)) return new Response(null, { status: 404 });
  return (await appAuth()).handler(request);
}
