import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ContentChange } from '@/server/services/cms/events';
import { type ContentReads, mergeReads, readsOfAnswer } from '@/server/services/cms/reads';
import { scriptHash } from './csp';
import { type FrontResponse, createFrontServer } from './front-response';
import {
  type CachedPage,
  PageCache,
  acceptedEncodings,
  PageCopy,
  cacheablePath,
  pageKey,
  sendCachedPage,
} from './page-cache';

const request = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  ({ url, method, headers }) as unknown as IncomingMessage;

describe('cacheablePath', () => {
  it('allows the content pages only', () => {
    for (const path of [
      '/',
      '/posts',
      '/posts/a-1?page=2',
      '/posts/post-000123',
      '/movies/m',
      '/audios/a',
      '/connect/c',
      '/feature/f',
      '/jobs/j',
      '/series/series-town',
      '/authors/writer-tanaka?page=2',
      '/faq',
      '/login?next=%2Fposts%2Fa',
    ])
      expect(cacheablePath(request(path)), path).not.toBeNull();
  });

  it('leaves APIs, files, staff, account, per-user and preview pages and writes alone', () => {
    for (const path of [
      '/api/me',
      '/_next/static/a.js',
      '/uploads/a.jpg',
      '/media/protected/a',
      '/admin',
      '/account/edit',
      '/posts/bookmark',
      '/posts/a/preview',
      '/posts/preview/a',
      '/search',
      '/posts/a/',
      '/posts/%61',
      '/feed.xml',
      '/series/s/feed.xml',
      '/authors',
      '/authors/a/b',
    ])
      expect(cacheablePath(request(path)), path).toBeNull();
    expect(cacheablePath(request('/posts/a', {}, 'POST'))).toBeNull();
  });
});

describe('pageKey', () => {
  it('holds the audience, the URL and every header the framework varies on', () => {
    const base = pageKey(request('/posts/a'), 'anonymous');
    expect(pageKey(request('/posts/a'), 'paid')).not.toBe(base);
    expect(pageKey(request('/posts/a?_rsc=1'), 'anonymous')).not.toBe(base);
    for (const header of [
      'rsc',
      'next-router-state-tree',
      'next-router-prefetch',
      'next-router-segment-prefetch',
      'next-url',
    ])
      expect(pageKey(request('/posts/a', { [header]: '1' }), 'anonymous'), header).not.toBe(base);
    expect(pageKey(request('/posts/a', { cookie: '_ga=1' }), 'anonymous')).toBe(base);
  });
});

describe('acceptedEncodings', () => {
  it.each<[string | undefined, string[]]>([
    [undefined, ['identity']],
    ['', ['identity']],
    ['gzip', ['gzip', 'identity']],
    ['gzip, deflate, br', ['br', 'gzip', 'deflate', 'identity']],
    ['deflate', ['deflate', 'identity']],
    ['*', ['br', 'gzip', 'deflate', 'identity']],
    ['gzip;q=0, deflate', ['deflate', 'identity']],
    ['identity;q=0, gzip', ['gzip']],
    ['*;q=0', []],
    ['*;q=0, identity', ['identity']],
    ['GZIP;Q=0.5', ['gzip', 'identity']],
  ])('%s → %o', (header, expected) => {
    expect(acceptedEncodings(header)).toEqual(expected);
  });
});

const page = (body: string, storedAt = 0, reads: ContentReads | null = null): CachedPage => ({
  status: 200,
  headers: { 'content-type': 'text/html' },
  body: Buffer.from(body),
  storedAt,
  reads,
});

/** What a render of a post page reads: the post (its writer expanded) and the newest posts. */
function postPageReads(id: string): ContentReads {
  const reads = readsOfAnswer('posts', id, new URLSearchParams(), {
    id,
    title: 't',
    writers: [{ id: 'w1', name: 'n' }],
  });
  mergeReads(
    reads,
    readsOfAnswer('posts', undefined, new URLSearchParams('orders=-publishedAt&limit=3'), {
      contents: [{ id: 'p1' }, { id: 'p2' }, { id: 'p3' }],
    }),
  );
  return reads;
}
const edit = (id: string, fields: string[], narrows = false): ContentChange => ({
  endpoint: 'posts',
  id,
  fields,
  membership: false,
  narrows,
});

describe('PageCache', () => {
  it('keeps a page until its TTL, then as the previous version for a few seconds', () => {
    let now = 0;
    const cache = new PageCache(1000, 1024 * 1024, () => now, 500);
    cache.store('k', page('a'));
    now = 999;
    expect(cache.find('k', undefined)).toMatchObject({ stale: false });
    now = 1000;
    expect(cache.find('k', undefined)).toMatchObject({ stale: true });
    now = 1500;
    expect(cache.find('k', undefined)).toBeUndefined();
  });

  it('purges only the pages whose render read what changed', () => {
    const cache = new PageCache(60_000, 1024 * 1024, () => 0);
    cache.store('a', page('a', 0, postPageReads('a')));
    cache.store('b', page('b', 0, postPageReads('b')));
    cache.store(
      'about',
      page('about', 0, readsOfAnswer('about', undefined, new URLSearchParams(), {})),
    );
    expect(cache.purge(edit('a', ['description', 'updatedAt', 'revisedAt']))).toBe(1);
    expect(cache.find('a', undefined)?.stale).toBe(true);
    expect(cache.find('b', undefined)?.stale).toBe(false);
    // p2 is in every post page's list of the newest posts.
    expect(cache.purge(edit('p2', ['title']))).toBe(2);
    expect(cache.find('about', undefined)?.stale).toBe(false);
    // The writer, expanded into each post: both pages.
    cache.store('a', page('a', 0, postPageReads('a')));
    expect(
      cache.purge({
        endpoint: 'writers',
        id: 'w1',
        fields: ['name'],
        membership: false,
        narrows: false,
      }),
    ).toBe(2);
  });

  it('a post published anywhere purges every list of posts; a page that read nothing known, any change', () => {
    const cache = new PageCache(60_000, 1024 * 1024, () => 0);
    cache.store('a', page('a', 0, postPageReads('a')));
    cache.store('login', page('login', 0, null));
    cache.store(
      'about',
      page('about', 0, readsOfAnswer('about', undefined, new URLSearchParams(), {})),
    );
    // An edit of a post in no list, of a field no list orders by: only the page that read nothing known.
    expect(cache.purge(edit('zzz', ['description']))).toBe(1);
    // Its publication date moved: lists ordered by it may take it in.
    expect(cache.purge(edit('zzz', ['publishedAt'], true))).toBe(2);
    cache.store('a', page('a', 0, postPageReads('a')));
    expect(cache.purge({ endpoint: 'posts', id: 'new' })).toBe(1); // a new post: 'a', 'login' is gone
    expect(cache.find('about', undefined)?.stale).toBe(false);
  });

  it('serves the previous version for a few seconds at most; a change that narrows access drops it at once', () => {
    let now = 0;
    const cache = new PageCache(60_000, 1024 * 1024, () => now, 5_000);
    cache.store('a', page('a', 0, postPageReads('a')));
    cache.purge(edit('a', ['description']));
    now = 4_999;
    expect(cache.find('a', undefined)?.stale).toBe(true);
    now = 5_000;
    expect(cache.find('a', undefined)).toBeUndefined();
    cache.store('a', page('a', now, postPageReads('a')));
    cache.purge(edit('a', ['body'], true));
    expect(cache.find('a', undefined)).toBeUndefined();
  });

  it('serves the previous version past its few seconds only while a render renews it', () => {
    let now = 0;
    const cache = new PageCache(60_000, 1024 * 1024, () => now, 5_000);
    cache.store('a', page('a', 0, postPageReads('a')));
    cache.purge(edit('a', ['description']));
    now = 9_000;
    // Its reader would wait for the same render: the previous version, at once.
    expect(cache.find('a', undefined, true)).toMatchObject({ stale: true });
    // No render under way (it failed, or was never started): gone, rendered by its reader.
    expect(cache.find('a', undefined)).toBeUndefined();
    cache.store('b', page('b', now, postPageReads('b')));
    cache.purge(edit('b', ['isPublicPreview'], true));
    expect(cache.find('b', undefined, true)).toBeUndefined();
  });

  it('never lets a render overtaken by an edit replace a page whose render began later', () => {
    let now = 0;
    const cache = new PageCache(60_000, 1024 * 1024, () => now);
    // Began at 10, an edit at 20 overtook it; a render that began at 30 was stored meanwhile.
    cache.store('k', { ...page('newer', 40), begunAt: 30 });
    now = 50;
    cache.store('k', { ...page('overtaken', 50), begunAt: 10, staleSince: 50 });
    expect(cache.find('k', undefined)).toMatchObject({ stale: false });
    expect(cache.find('k', undefined)?.page.body.toString()).toBe('newer');
    // Over an older page it is the one to serve, as the previous version.
    cache.store('j', { ...page('older', 5), begunAt: 0, staleSince: 20 });
    cache.store('j', { ...page('overtaken', 50), begunAt: 10, staleSince: 50 });
    expect(cache.find('j', undefined)).toMatchObject({ stale: true });
    expect(cache.find('j', undefined)?.page.body.toString()).toBe('overtaken');
  });

  it('answers each client only in an encoding it accepts (the one the page was sent in)', () => {
    const cache = new PageCache(60_000, 1024 * 1024, () => 0);
    cache.store('k', {
      ...page('deflated'),
      headers: { 'content-type': 'text/html', 'content-encoding': 'deflate' },
    });
    expect(cache.find('k', 'deflate')?.page.body.toString()).toBe('deflated');
    expect(cache.find('k', '*')?.page.body.toString()).toBe('deflated');
    // Asked for no compression, or gzip only: not the deflated copy.
    expect(cache.find('k', undefined)).toBeUndefined();
    expect(cache.find('k', 'gzip')).toBeUndefined();
    cache.store('k', page('plain'));
    expect(cache.find('k', undefined)?.page.body.toString()).toBe('plain');
    expect(cache.find('k', 'gzip')?.page.body.toString()).toBe('plain');
    // A browser is not served the copy a client without compression left (curl, a crawler: the
    // home page 8× larger); its own render is compressed and kept beside it.
    cache.store('k', { ...page('plain, for curl'), askedUncompressed: true });
    expect(cache.find('k', undefined)?.page.body.toString()).toBe('plain, for curl');
    expect(cache.find('k', 'br')?.page.body.toString()).toBe('plain, for curl');
    expect(cache.find('k', 'gzip, deflate, br, zstd')?.page.body.toString()).toBe('deflated');
    expect(cache.find('k', 'gzip')).toBeUndefined();
    // An encoding the cache does not know is not filed at all.
    cache.store('x', { ...page('z'), headers: { 'content-encoding': 'zstd' } });
    expect(cache.find('x', 'zstd, identity')).toBeUndefined();
  });

  it('drops the oldest pages past its byte budget', () => {
    const cache = new PageCache(60_000, 1600, () => 0);
    cache.set('a', page('x'.repeat(100)));
    cache.set('b', page('y'.repeat(100)));
    for (let i = 0; i < 20; i++) cache.set(`c${i}`, page('z'.repeat(90)));
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c19')).toBeDefined();
    // What /api/metrics reports (page_cache_bytes, page_cache_entries): within the budget.
    expect(cache.heldBytes).toBe(cache.size * 90);
    expect(cache.heldBytes).toBeLessThanOrEqual(1600);
    cache.set('c19', page('w'.repeat(40)));
    expect(cache.heldBytes).toBe((cache.size - 1) * 90 + 40);
  });
});

async function serve(handler: (req: IncomingMessage, res: FrontResponse) => void) {
  const server = createFrontServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(r)) };
}

describe('a copy of a page for the cache', () => {
  it('streams the page to the client and keeps a copy of a 200 HTML answer', async () => {
    const stored: Omit<CachedPage, 'reads'>[] = [];
    const server = await serve((_req, res) => {
      res.copy = new PageCopy((p) => stored.push(p));
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

  it('keeps nothing that sets a cookie, is not a 200, not HTML or RSC, or varies otherwise', async () => {
    const stored: Omit<CachedPage, 'reads'>[] = [];
    const server = await serve((req, res) => {
      res.copy = new PageCopy((p) => stored.push(p), 'own=1');
      if (req.url === '/cookie') res.setHeader('set-cookie', 'a=1');
      if (req.url === '/cookies') res.setHeader('set-cookie', ['own=1', 'a=1']);
      if (req.url === '/missing') res.statusCode = 404;
      if (req.url === '/vary') res.setHeader('vary', 'rsc, cookie');
      res.setHeader('content-type', req.url === '/json' ? 'application/json' : 'text/html');
      res.end('x');
    });
    for (const path of ['/cookie', '/cookies', '/missing', '/json', '/vary'])
      await (await fetch(server.url + path)).text();
    expect(stored).toHaveLength(0);
    await server.close();
  });

  it('keeps an RSC answer, and one that sets only the own cookie of the server', async () => {
    const stored: Omit<CachedPage, 'reads'>[] = [];
    const server = await serve((req, res) => {
      res.copy = new PageCopy((p) => stored.push(p), 'own=1');
      res.setHeader('set-cookie', 'own=1');
      res.setHeader('vary', 'rsc, next-router-state-tree, next-router-prefetch, accept-encoding');
      res.setHeader('content-type', 'text/x-component');
      res.end('0:{}');
    });
    await (await fetch(server.url)).text();
    await server.close();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.headers['set-cookie']).toBeUndefined();
  });
});

describe('the policy of a cached page', () => {
  const NONCE = 'Tm9uY2VPZlRoZVJlbmRlcg==';
  const LIVE = `default-src 'self'; script-src 'self' 'nonce-${NONCE}'; frame-ancestors 'self'`;
  const HTML =
    `<!DOCTYPE html><html><head><script src="/_next/static/chunks/a.js" async nonce="${NONCE}"></script></head>` +
    `<body><p>本文</p><script nonce="${NONCE}">self.__next_f.push([1,"日本語"])</script></body></html>`;

  /** A page rendered with nonce N, captured, then replayed by sendCachedPage: the replay's policy. */
  async function replayed(
    contentType: string,
    body: Buffer,
    encoding?: string,
  ): Promise<{ stored: Omit<CachedPage, 'reads'>[]; policy: string | null }> {
    const stored: Omit<CachedPage, 'reads'>[] = [];
    const render = await serve((_req, res) => {
      res.copy = new PageCopy((p) => stored.push(p));
      res.setHeader('content-security-policy', LIVE);
      res.setHeader('content-type', contentType);
      if (encoding) res.setHeader('content-encoding', encoding);
      res.end(body);
    });
    const first = await fetch(render.url);
    expect(first.headers.get('content-security-policy')).toBe(LIVE); // the render's own
    await first.arrayBuffer().catch(() => undefined); // a broken body is the point of one test
    await render.close();
    if (stored.length === 0) return { stored, policy: null };
    const cache = await serve((req, res) => sendCachedPage(stored[0]!, req, res));
    const again = await fetch(cache.url);
    await again.arrayBuffer();
    await cache.close();
    expect(again.headers.get('x-page-cache')).toBe('hit');
    return { stored, policy: again.headers.get('content-security-policy') };
  }

  it('names the scripts of the page by hash instead of the nonce it was rendered with', async () => {
    for (const [body, encoding] of [
      [Buffer.from(HTML), undefined],
      [gzipSync(HTML), 'gzip'],
      [brotliCompressSync(HTML), 'br'],
    ] as const) {
      const { policy } = await replayed('text/html; charset=utf-8', body, encoding);
      expect(policy, encoding).not.toContain(NONCE);
      expect(policy, encoding).toBe(
        `default-src 'self'; script-src 'self' ${scriptHash('self.__next_f.push([1,"日本語"])')}; frame-ancestors 'self'`,
      );
    }
  });

  it('keeps no nonce in a cached RSC answer either', async () => {
    const { policy } = await replayed('text/x-component', Buffer.from('0:{}'));
    expect(policy).toBe("default-src 'self'; script-src 'self'; frame-ancestors 'self'");
  });

  it('does not keep a page whose scripts it cannot read to hash', async () => {
    const { stored } = await replayed('text/html', Buffer.from(HTML), 'gzip');
    expect(stored).toHaveLength(0);
  });
});
