import { describe, expect, it } from 'vitest';
import {
  POST_PREFIXES,
  ROUTER_STATE_MAX_LENGTH,
  isMalformedPath,
  isValidRouterState,
  refusalFor,
  servedUrl,
} from './request-guard';

const req = (method: string, url = '/', headers: Record<string, string> = {}) => ({
  method,
  url,
  headers,
});
const encode = (state: unknown) => encodeURIComponent(JSON.stringify(state));

/** Router states as Next 16's client sends them (prepareFlightRouterStateForRequest). */
const HOME = ['', { children: ['__PAGE__', {}] }];
const POST_PAGE = [
  '',
  {
    children: [
      'posts',
      {
        children: [
          ['contentId', 'abc-1', 'd', null],
          { children: ['__PAGE__', {}, null, 'refetch'] },
        ],
      },
    ],
  },
  null,
  null,
  0,
];

describe('refusalFor: methods', () => {
  it.each(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
    'lets %s through',
    (method) => {
      expect(refusalFor(req(method, '/api/v1/posts'))).toBeNull();
    },
  );

  it.each(['TRACE', 'TRACK', 'CONNECT'])('answers %s with 405 and Allow', (method) => {
    for (const url of ['/', '/posts/abc', '/api/v1/posts']) {
      expect(refusalFor(req(method, url))).toMatchObject({
        status: 405,
        headers: { allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' },
      });
    }
  });

  it.each(['PROPFIND', 'MKCOL', 'LOCK', 'QUERY', 'PURGE', 'M-SEARCH'])(
    'answers %s, a method no resource here allows, with 405 and Allow (never a 5xx)',
    (method) => {
      expect(refusalFor(req(method, '/api/v1/posts'))).toMatchObject({
        status: 405,
        headers: { allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' },
      });
    },
  );
});

describe('refusalFor: posts to pages', () => {
  it('answers 400 to a POST to a page, a server action attempt included', () => {
    const attempts: Record<string, string>[] = [
      { 'content-type': 'application/x-www-form-urlencoded', rsc: '1' },
      { 'next-action': 'abc123', 'content-type': 'text/plain;charset=UTF-8' },
      {},
    ];
    for (const headers of attempts) {
      expect(refusalFor(req('POST', '/posts/abc?x=1', headers))?.status).toBe(400);
      expect(refusalFor(req('POST', '/', headers))?.status).toBe(400);
    }
  });

  it.each(['PUT', 'PATCH', 'DELETE'])(
    'answers 400 to a %s to a page, which would render it',
    (method) => {
      for (const url of ['/search', '/admin/media', '/biz/axis-admin', '/'])
        expect(refusalFor(req(method, url))?.status).toBe(400);
      expect(refusalFor(req(method, '/api/v1/posts/abc'))).toBeNull();
    },
  );

  it('lets a POST to an API route through', () => {
    for (const url of ['/api/contact', '/api/account/sign-in', '/api/v1/posts?status=draft'])
      expect(refusalFor(req('POST', url, { 'content-type': 'application/json' }))).toBeNull();
  });

  it('leaves a page GET with RSC: 1 alone', () => {
    expect(refusalFor(req('GET', '/posts', { rsc: '1' }))).toBeNull();
  });

  it('lets a POST to the framework’s development endpoints through only where it is told to', () => {
    const overlay = req('POST', '/__nextjs_original-stack-frames');
    expect(refusalFor(overlay)?.status).toBe(400);
    expect(refusalFor(overlay, [...POST_PREFIXES, '/__nextjs'])).toBeNull();
    expect(refusalFor(req('POST', '/posts/abc'), [...POST_PREFIXES, '/__nextjs'])?.status).toBe(
      400,
    );
  });
});

describe('isMalformedPath', () => {
  it('is a path with broken percent-encoding, whatever its query says', () => {
    for (const url of ['/%E0%A4%A', '/posts/%', '/%ZZ?x=1'])
      expect(isMalformedPath(url), url).toBe(true);
    for (const url of ['/', '/posts/%E3%81%82', '/search?q=%', '/a%20b'])
      expect(isMalformedPath(url), url).toBe(false);
  });
});

describe('Next-Router-State-Tree', () => {
  it('accepts the states the client sends', () => {
    expect(isValidRouterState(encode(HOME))).toBe(true);
    expect(isValidRouterState(encode(POST_PAGE))).toBe(true);
    expect(
      isValidRouterState(encode(['', {}, ['/a', '/a'], 'inside-shared-layout', null, 'x'])),
    ).toBe(true);
    expect(
      refusalFor(
        req('GET', '/posts/abc-1', { rsc: '1', 'next-router-state-tree': encode(POST_PAGE) }),
      ),
    ).toBeNull();
  });

  it.each([
    ['broken percent-encoding', '%E0%A4%A'],
    ['not JSON', encodeURIComponent('[oops')],
    ['an object', encode({ children: [] })],
    ['a string', encode('x')],
    ['a too short tuple', encode([''])],
    ['a too long tuple', encode(['', {}, null, null, 0, 'x', 'extra'])],
    ['a number segment', encode([1, {}])],
    ['a child that is not a state', encode(['', { children: 'x' }])],
    ['an unknown param type', encode(['', { children: [['id', 'a', 'zz', null], {}] }])],
    ['a param segment without its fourth item', encode(['', { children: [['id', 'a', 'd'], {}] }])],
    ['an unknown refresh marker', encode(['', {}, null, 'reload'])],
    ['a url pair of three', encode(['', {}, ['a', 'b', 'c']])],
    ['a null sixth item', encode(['', {}, null, null, null, null])],
    ['a string for the number', encode(['', {}, null, null, '1'])],
  ])('refuses %s with 400', (_, value) => {
    expect(isValidRouterState(value)).toBe(false);
    expect(refusalFor(req('GET', '/', { rsc: '1', 'next-router-state-tree': value }))?.status).toBe(
      400,
    );
  });

  it('refuses a state over Next.js’s size limit and a state nested past any real route', () => {
    let state: unknown = ['__PAGE__', {}];
    for (let i = 0; i < 150; i++) state = ['s', { children: state }];
    expect(encode(state).length).toBeLessThan(ROUTER_STATE_MAX_LENGTH);
    expect(isValidRouterState(encode(state))).toBe(false);
    // Nested 100,000 deep (what overflows a recursive validator) is refused by length first.
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    expect(isValidRouterState(deep)).toBe(false);
    const wide = encode([
      '',
      Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`p${i}`, ['', {}]])),
    ]);
    expect(wide.length).toBeGreaterThan(ROUTER_STATE_MAX_LENGTH);
    expect(isValidRouterState(wide)).toBe(false);
  });
});

describe('servedUrl: a page URL that also takes a POST', () => {
  it('hands the unsubscribe link’s POST to its route, query kept', () => {
    expect(servedUrl('POST', '/newsletter/unsubscribe?token=a.b.c')).toBe(
      '/api/newsletter/unsubscribe?token=a.b.c',
    );
    expect(
      refusalFor(req('POST', servedUrl('POST', '/newsletter/unsubscribe?token=x'))),
    ).toBeNull();
  });

  it('leaves a GET, other pages and look-alike paths alone', () => {
    expect(servedUrl('GET', '/newsletter/unsubscribe?token=x')).toBe(
      '/newsletter/unsubscribe?token=x',
    );
    expect(servedUrl('POST', '/newsletter/unsubscribe/x')).toBe('/newsletter/unsubscribe/x');
    expect(servedUrl('POST', '/posts/abc')).toBe('/posts/abc');
  });
});
