import http, { type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { type CachedPage, PageCache, anonymousPageKey, capturePage } from './page-cache';

const request = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  ({ url, method, headers }) as unknown as IncomingMessage;

describe('anonymousPageKey', () => {
  it('keys an anonymous page request by URL and encoding', () => {
    expect(anonymousPageKey(request('/posts/a?x=1', { 'accept-encoding': 'gzip, br' }))).toBe(
      'gz /posts/a?x=1',
    );
    expect(anonymousPageKey(request('/posts/a'))).toBe('id /posts/a');
    expect(anonymousPageKey(request('/', { cookie: 'theme=dark; _ga=1' }))).toBe('id /');
  });

  it('never uses the cache for a session, a draft, a preview or a one-time message', () => {
    for (const cookie of [
      'axis.session_token=abc',
      '__Secure-axis.session_token=abc',
      'x=1; axis_preview=%7B%7D',
      '__prerender_bypass=1',
      'axis_flash=e30',
    ])
      expect(anonymousPageKey(request('/posts/a', { cookie })), cookie).toBeNull();
  });

  it('leaves framework data requests, APIs, files, staff and account pages and writes alone', () => {
    expect(anonymousPageKey(request('/posts/a', { rsc: '1' }))).toBeNull();
    expect(anonymousPageKey(request('/posts/a?_rsc=xyz'))).toBeNull();
    expect(anonymousPageKey(request('/posts/a', { 'next-action': 'x' }))).toBeNull();
    for (const path of [
      '/api/me',
      '/_next/static/a.js',
      '/uploads/a.jpg',
      '/media/protected/a',
      '/admin',
      '/account/edit',
      '/posts/a/preview',
      '/posts/preview/a',
    ])
      expect(anonymousPageKey(request(path)), path).toBeNull();
    expect(anonymousPageKey(request('/posts/a', {}, 'POST'))).toBeNull();
  });
});

const page = (body: string, storedAt = 0): CachedPage => ({
  status: 200,
  headers: { 'content-type': 'text/html' },
  body: Buffer.from(body),
  storedAt,
});

describe('PageCache', () => {
  it('keeps a page until its TTL and counts clears', () => {
    let now = 0;
    const cache = new PageCache(1000, 1024 * 1024, () => now);
    cache.set('k', page('a'));
    now = 999;
    expect(cache.get('k')?.body.toString()).toBe('a');
    now = 1000;
    expect(cache.get('k')).toBeUndefined();
    const before = cache.generation;
    cache.clear();
    expect(cache.generation).toBe(before + 1);
  });

  it('drops the oldest pages past its byte budget', () => {
    const cache = new PageCache(60_000, 1600, () => 0);
    cache.set('a', page('x'.repeat(100)));
    cache.set('b', page('y'.repeat(100)));
    for (let i = 0; i < 20; i++) cache.set(`c${i}`, page('z'.repeat(90)));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c19')).toBeDefined();
  });
});

async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

describe('capturePage', () => {
  it('streams the page to the client and keeps a copy of a 200 HTML answer', async () => {
    const stored: CachedPage[] = [];
    const server = await serve((_req, res) => {
      capturePage(res, (p) => stored.push(p));
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.write('<html>');
      res.end(Buffer.from('本文</html>'));
    });
    const text = await (await fetch(server.url)).text();
    await server.close();
    expect(text).toBe('<html>本文</html>');
    expect(stored).toHaveLength(1);
    expect(stored[0]!.body.toString()).toBe('<html>本文</html>');
    expect(stored[0]!.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('keeps nothing that sets a cookie, is not a 200 or is not HTML', async () => {
    const stored: CachedPage[] = [];
    const server = await serve((req, res) => {
      capturePage(res, (p) => stored.push(p));
      if (req.url === '/cookie') res.setHeader('set-cookie', 'a=1');
      if (req.url === '/missing') res.statusCode = 404;
      res.setHeader('content-type', req.url === '/json' ? 'application/json' : 'text/html');
      res.end('x');
    });
    for (const path of ['/cookie', '/missing', '/json'])
      await (await fetch(server.url + path)).text();
    await server.close();
    expect(stored).toHaveLength(0);
  });
});
