import 'server-only';
import { env } from '@/env';
import { getDb } from '@/server/platform/db/client';
import { usesSandbox } from './provider';
import { noteSandboxActivity } from '@/server/services/billing-sandbox/activity';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';

/**
 * {SITE_URL}/billing-sandbox/…: the sandbox's API for tools and tests, and its hosted checkout
 * and portal pages. Not there at all when the site takes real payments (STRIPE_SECRET_KEY).
 */
export async function serveBillingSandbox(request: Request): Promise<Response> {
  if (!usesSandbox()) {
    return new Response('Not Found', { status: 404, headers: { 'content-type': 'text/plain' } });
  }
  // The sandbox builds its page URLs and checks form origins against the request's origin:
  // give it the site's public one (behind a proxy, the framework's may be http://internal).
  const url = new URL(request.url);
  const site = new URL(env().SITE_URL);
  url.protocol = site.protocol;
  url.host = site.host;
  const forwarded = new Request(url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    duplex: 'half',
  } as RequestInit);
  const response = await handleBillingSandbox(forwarded, await getDb());
  if (request.method !== 'GET') noteSandboxActivity();
  return response;
}
