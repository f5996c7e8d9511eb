import 'server-only';

/**
 * A read cache in front of the content service: successful GET answers kept by URL, dropped
 * when content changes (built-in service) or after the TTL (a hosted service, and other app
 * instances: a change made through another instance is seen here within the TTL). Draft reads
 * (draftKey) are never cached.
 */

type Entry = { body: string; status: number; contentType: string; until: number };

export type ReadCache = {
  fetch: typeof fetch;
  clear: () => void;
  size: () => number;
};

export function createReadCache(
  inner: typeof fetch,
  options: { ttlMs: number; maxEntries?: number },
): ReadCache {
  const maxEntries = options.maxEntries ?? 5000;
  const entries = new Map<string, Entry>();

  const cachedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (request.method !== 'GET' || url.searchParams.has('draftKey')) return inner(request);
    const key = `${request.headers.get('x-microcms-api-key') ?? ''} ${url.pathname}?${url.searchParams.toString()}`;
    const hit = entries.get(key);
    if (hit && hit.until > Date.now()) {
      // Most recently used last, so the oldest are evicted first.
      entries.delete(key);
      entries.set(key, hit);
      return new Response(hit.body, {
        status: hit.status,
        headers: { 'content-type': hit.contentType },
      });
    }
    const response = await inner(request);
    if (response.status !== 200) return response;
    const body = await response.text();
    const contentType = response.headers.get('content-type') ?? 'application/json';
    entries.set(key, { body, status: 200, contentType, until: Date.now() + options.ttlMs });
    while (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
    return new Response(body, { status: 200, headers: { 'content-type': contentType } });
  };

  return {
    fetch: cachedFetch,
    clear: () => entries.clear(),
    size: () => entries.size,
  };
}
