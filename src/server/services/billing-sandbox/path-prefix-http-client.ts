import 'server-only';
import Stripe from 'stripe';

/**
 * The `stripe` SDK (23.x) has no base-path setting: every resource method hard-codes its path
 * (`/v1/products`, …) and only `host`, `port` and `protocol` are configurable. To reach the
 * sandbox under `{SITE_URL}/billing-sandbox/v1/…`, the SDK is given this HTTP client (its
 * public `httpClient` option), which puts the prefix before each path and otherwise is the
 * SDK's own Node client.
 */
export function pathPrefixHttpClient(prefix: string): Stripe.HttpClient {
  const inner = Stripe.createNodeHttpClient();
  const client = Object.create(inner) as Stripe.HttpClient;
  client.makeRequest = (host, port, path, method, headers, requestData, protocol, timeout) =>
    inner.makeRequest(
      host,
      port,
      `${prefix}${path}`,
      method,
      headers,
      requestData,
      protocol,
      timeout,
    );
  return client;
}
