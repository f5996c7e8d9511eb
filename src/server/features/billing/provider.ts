import 'server-only';
import Stripe from 'stripe';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { noteSandboxActivity } from '@/server/services/billing-sandbox/activity';
import { handleBillingSandbox } from '@/server/services/billing-sandbox/http';
import { pathPrefixHttpClient } from '@/server/services/billing-sandbox/path-prefix-http-client';
import { sandboxSecretKey } from '@/server/services/billing-sandbox/secret-key';
import { singleton } from '@/lib/singleton';

/**
 * The app's one way to the payment provider (docs/decisions/008-billing-sandbox.md): the official
 * SDK, pinned to the API version of its release. With STRIPE_SECRET_KEY it talks to Stripe;
 * without, to the built-in sandbox, called in process through the SDK's own fetch client with the
 * site's origin as host, so that the URLs the sandbox answers (hosted checkout, portal) are the
 * site's. Everything above this file is the same code on both.
 */

export type BillingProvider = {
  kind: 'stripe' | 'sandbox';
  stripe: Stripe;
};

const cache = singleton('billing-providers', () => new WeakMap<Db, Promise<BillingProvider>>());

export function billingProvider(db: Db): Promise<BillingProvider> {
  let provider = cache.get(db);
  if (!provider) {
    provider = makeProvider(db);
    cache.set(db, provider);
    provider.catch(() => cache.delete(db));
  }
  return provider;
}

/** Whether billing runs on the built-in sandbox (no STRIPE_SECRET_KEY). */
export function usesSandbox(): boolean {
  return !env().STRIPE_SECRET_KEY;
}

/** The SDK's settings for an API elsewhere than api.stripe.com (its path before /v1). */
function apiAt(apiUrl: string | undefined): Stripe.StripeConfig {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const prefix = url.pathname.replace(/\/+$/, '');
  return {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    ...(prefix ? { httpClient: pathPrefixHttpClient(prefix) } : {}),
  };
}

async function makeProvider(db: Db): Promise<BillingProvider> {
  const { STRIPE_SECRET_KEY, STRIPE_API_URL, SITE_URL } = env();
  const common = { apiVersion: Stripe.API_VERSION, appInfo: { name: 'axis-membership' } };
  if (STRIPE_SECRET_KEY) {
    return {
      kind: 'stripe',
      stripe: new Stripe(STRIPE_SECRET_KEY, { ...common, ...apiAt(STRIPE_API_URL) }),
    };
  }
  const site = new URL(SITE_URL);
  const inProcess: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await handleBillingSandbox(request, db);
    if (request.method !== 'GET') noteSandboxActivity();
    return response;
  };
  const stripe = new Stripe(await sandboxSecretKey(db), {
    ...common,
    host: site.hostname,
    port: site.port || (site.protocol === 'https:' ? 443 : 80),
    protocol: site.protocol === 'https:' ? 'https' : 'http',
    httpClient: Stripe.createFetchHttpClient(inProcess),
    maxNetworkRetries: 0,
  });
  return { kind: 'sandbox', stripe };
}
