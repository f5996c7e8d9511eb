import { describe, expect, it } from 'vitest';
import { TransferError } from '../errors';
import { MicroCmsClient, normalizeBaseUrl, waitFromHeaders } from './client';

describe('normalizeBaseUrl', () => {
  it('accepts a service address with or without /api/v1', () => {
    expect(normalizeBaseUrl('https://svc.microcms.io/api/v1')).toBe(
      'https://svc.microcms.io/api/v1',
    );
    expect(normalizeBaseUrl(' https://svc.microcms.io/ ')).toBe('https://svc.microcms.io/api/v1');
    expect(normalizeBaseUrl('https://svc.microcms.io/api/v1/')).toBe(
      'https://svc.microcms.io/api/v1',
    );
    expect(normalizeBaseUrl('http://127.0.0.1:3300/api/v1')).toBe('http://127.0.0.1:3300/api/v1');
  });

  it('refuses plain http elsewhere, credentials, queries, other paths and non-URLs', () => {
    for (const bad of [
      'http://svc.microcms.io/api/v1',
      'https://user:pw@svc.microcms.io/api/v1',
      'https://svc.microcms.io/api/v1?x=1',
      'https://svc.microcms.io/api/v1#x',
      'https://svc.microcms.io/api/v2',
      'file:///etc/passwd',
      'svc.microcms.io',
    ])
      expect(normalizeBaseUrl(bad)).toBeNull();
  });
});

describe('waitFromHeaders', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads Retry-After (seconds or a date), else X-RateLimit-Reset, capped at a minute', () => {
    expect(waitFromHeaders(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(
      waitFromHeaders(new Headers({ 'retry-after': new Date(now + 3000).toUTCString() }), now),
    ).toBe(3000);
    expect(waitFromHeaders(new Headers({ 'x-ratelimit-reset': String(now / 1000 + 1) }), now)).toBe(
      1050,
    );
    expect(waitFromHeaders(new Headers({ 'retry-after': '3600' }), now)).toBe(60_000);
    expect(waitFromHeaders(new Headers(), now)).toBeNull();
  });
});

describe('MicroCmsClient', () => {
  const make = (answers: (() => Response)[], waits: number[] = []) => {
    const calls: { url: string; key: string | null }[] = [];
    const client = new MicroCmsClient({
      baseUrl: 'https://svc.microcms.io/api/v1',
      apiKey: 'secret',
      requestsPerSecond: 1000,
      maxAttempts: 3,
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        calls.push({
          url: typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          key: headers.get('x-microcms-api-key'),
        });
        const next = answers.shift();
        return next ? Promise.resolve(next()) : Promise.reject(new Error('offline'));
      },
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });
    return { client, calls, waits };
  };

  it('waits as a 429 says, then goes on', async () => {
    const waits: number[] = [];
    const { client, calls } = make(
      [
        () => new Response('{}', { status: 429, headers: { 'retry-after': '1' } }),
        () => Response.json({ contents: [], totalCount: 0 }),
      ],
      waits,
    );
    expect(await client.getJson('posts', { limit: '0' })).toEqual({ contents: [], totalCount: 0 });
    expect(calls.map((c) => c.url)).toEqual([
      'https://svc.microcms.io/api/v1/posts?limit=0',
      'https://svc.microcms.io/api/v1/posts?limit=0',
    ]);
    expect(calls.every((c) => c.key === 'secret')).toBe(true);
    expect(waits).toContain(1000);
    expect(client.rateLimited).toBe(1);
  });

  it('gives up after its attempts with a Japanese message that never holds the key', async () => {
    const { client } = make([
      () => new Response(null, { status: 503 }),
      () => new Response(null, { status: 503 }),
      () => new Response(null, { status: 503 }),
    ]);
    const error = await client.getJson('posts', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransferError);
    expect((error as Error).message).toBe('posts を取得できませんでした: サーバーエラー (503)。');
  });

  it('answers null for a missing API, and refuses a wrong key at once', async () => {
    const { client, calls } = make([
      () => new Response(null, { status: 404 }),
      () => Response.json({ message: 'X-MICROCMS-API-KEY header is invalid.' }, { status: 401 }),
    ]);
    expect(await client.getJson('studio', {})).toBeNull();
    await expect(client.getJson('posts', {})).rejects.toThrow(
      'svc.microcms.io が API キーを受け付けませんでした (401)。キーを確かめてください。',
    );
    expect(calls).toHaveLength(2);
  });

  it('sends no key with a file download', async () => {
    const { client, calls } = make([() => new Response('bytes')]);
    await client.request('https://images.microcms-assets.io/a.png', {
      withKey: false,
      what: 'a.png',
    });
    expect(calls[0]!.key).toBeNull();
  });
});
