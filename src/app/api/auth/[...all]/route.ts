import { appAuth } from '@/server/features/identity/app-auth';
import { handleProviderCallback } from '@/server/features/account/account-http';
import { isOidcProviderId } from '@/server/features/identity/oidc-providers';

export const dynamic = 'force-dynamic';

/**
 * better-auth over HTTP, limited to the link in the verification mails (sign-up and e-mail
 * change) and the return from a sign-in provider (LINE, Google). Every other account action
 * goes through /api/account/{flow}, which validates, rate limits and audits before calling
 * better-auth on the server.
 */
const EXPOSED = new Set(['/api/auth/verify-email']);
const PROVIDER_CALLBACK = /^\/api\/auth\/callback\/([a-z]+)$/;

export async function GET(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  const provider = PROVIDER_CALLBACK.exec(path)?.[1];
  if (isOidcProviderId(provider)) return handleProviderCallback(request, provider);
  if (!EXPOSED.has(path)) return new Response(null, { status: 404 });
  return (await appAuth()).handler(request);
}
