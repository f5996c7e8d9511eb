import 'server-only';
import { TtlCache } from '@/lib/ttl-cache';

/**
 * A read cache in front of the content service: successful GET answers kept by URL, dropped
 * when content changes (built-in service) or after the TTL (a hosted service, and other app
 * instances: a change made through another instance is seen here within the TTL). Draft reads
 * (draftKey) are never cached.
 */

type Entry = { body: string; contentType: string };

export type ReadCache = {
  fetch: typeof fetch;
  clear: () => void;
  size: () => number;
};

export function createReadCache(
  inner: typeof fetch,
  options: { ttlMs: number; maxEntries?: number },
): ReadCache {
  const entries = new TtlCache<Entry>(options.ttlMs, options.maxEntries ?? 5000);

  const cachedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (request.method !== 'GET' || url.searchParams.has('draftKey')) return inner(request);
    const key = `${request.headers.get('x-microcms-api-key') ?? ''} ${url.pathname}?${url.searchParams.toString()}`;
    const hit = entries.get(key);
    if (hit)
      return new Response(hit.body, { status: 200, headers: { 'content-type': hit.contentType } });
    const response = await inner(request);
    if (response.status !== 200) return response;
    const body = await response.text();
    const contentType = response.headers.get('content-type') ?? 'application/json';
    entries.set(key, { body, contentType });
    return new Response(body, { status: 200, headers: { 'content-type': contentType } });
  };

  return {
    fetch: cachedFetch,
    clear: () => entries.clear(),
    size: () => entries.size,
  };
}
