import { describe, expect, it, vi } from 'vitest';
import { createReadCache } from './read-cache';

function fakeService() {
  let calls = 0;
  const fetch = vi.fn((input: RequestInfo | URL) => {
    calls++;
    const url = new URL(input instanceof Request ? input.url : String(input));
    const status = url.pathname.endsWith('/missing') ? 404 : 200;
    return Promise.resolve(
      new Response(JSON.stringify({ call: calls }), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    );
  });
  return fetch as unknown as typeof globalThis.fetch;
}

const base = 'https://svc.microcms.io/api/v1';

describe('the read cache in front of a hosted content service', () => {
  it('answers a repeated GET from the cache, per URL and key', async () => {
    const cache = createReadCache(fakeService(), { ttlMs: 60_000 });
    const get = async (url: string, key = 'k1') =>
      (await (await cache.fetch(url, { headers: { 'X-MICROCMS-API-KEY': key } })).json()) as {
        call: number;
      };
    expect(await get(`${base}/posts?limit=1`)).toEqual({ call: 1 });
    expect(await get(`${base}/posts?limit=1`)).toEqual({ call: 1 });
    expect(await get(`${base}/posts?limit=2`)).toEqual({ call: 2 });
    expect(await get(`${base}/posts?limit=1`, 'k2')).toEqual({ call: 3 });
    cache.clear();
    expect(await get(`${base}/posts?limit=1`)).toEqual({ call: 4 });
  });

  it('never keeps drafts, errors or writes', async () => {
    const cache = createReadCache(fakeService(), { ttlMs: 60_000 });
    await cache.fetch(`${base}/posts/p1?draftKey=abc`);
    await cache.fetch(`${base}/posts/missing`);
    await cache.fetch(`${base}/posts`, { method: 'POST', body: '{}' });
    expect(cache.size()).toBe(0);
  });

  it('forgets an answer after its time to live', async () => {
    vi.useFakeTimers();
    try {
      const cache = createReadCache(fakeService(), { ttlMs: 1000 });
      const call = async () =>
        ((await (await cache.fetch(`${base}/posts`)).json()) as { call: number }).call;
      expect(await call()).toBe(1);
      vi.advanceTimersByTime(999);
      expect(await call()).toBe(1);
      vi.advanceTimersByTime(1);
      expect(await call()).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
