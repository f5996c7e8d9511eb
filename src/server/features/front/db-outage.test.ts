import { createHash } from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NON_PAGE_POLICY, SECURITY_HEADERS } from '@/lib/security-headers';
import { givePagePolicy, pagePolicies } from './csp';
import { OUTAGE_MESSAGE, answerOutage, answersAtOnce, outageGuard } from './db-outage';
import { type FrontResponse, createFrontServer } from './front-response';
import { PageCopy } from './page-cache';

type Handler = (req: http.IncomingMessage, res: FrontResponse) => void;

/**
 * A real server that does what the front server's pipeline does first (the security headers,
 * then the outage stage) and hands the rest to `handler`, the stand-in for the framework.
 */
async function frontServer(state: { up: boolean }, handler: Handler, cachedPageMayAnswer = false) {
  const available = () => state.up;
  const server = createFrontServer((req, res) => {
    for (const { key, value } of SECURITY_HEADERS) res.setHeader(key, value);
    if (answersAtOnce(req, { cachedPageMayAnswer, available })) return answerOutage(req, res);
    res.outage = outageGuard(req, res, available);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  const { port } = server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

const servers: ReturnType<typeof createFrontServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function get(url: string, init?: RequestInit) {
  const response = await fetch(url, init);
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** The framework failing its render: a 500 page with headers of its own. */
const failingRender: Handler = (_req, res) => {
  res.statusCode = 500;
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('x-powered-by', 'Next.js');
  res.setHeader('etag', '"abc"');
  res.write('<!DOCTYPE html><html><body>Internal Server Error');
  res.end('</body></html>');
};

const neverCalled: Handler = () => {
  throw new Error('the handler must not run while the database is down');
};

function expectOutagePage(answer: Awaited<ReturnType<typeof get>>) {
  expect(answer.status).toBe(503);
  expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(answer.headers.get('retry-after')).toBe('5');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  for (const { key, value } of SECURITY_HEADERS) expect(answer.headers.get(key)).toBe(value);
  expect(answer.body).toContain('<html lang="ja">');
  expect(answer.body).toContain('ただいまサービスに接続できません');
  expect(answer.body).toContain('AXIS Membership'); // the site's name (SITE_NAME's default)
  expect(answer.body).toContain('name="viewport"');
  expect(answer.body).not.toMatch(/(?:src|href)="(?:https?:)?\/\//); // nothing to load
}

describe('while the database is down', () => {
  it('answers a page with the Japanese 503 page, whose only style its policy allows', async () => {
    const url = await frontServer({ up: false }, neverCalled);
    const answer = await get(`${url}/posts/abc?x=1`);
    expectOutagePage(answer);
    const style = /<style>([\s\S]*)<\/style>/.exec(answer.body)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    expect(answer.headers.get('content-security-policy')).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; ` +
        `form-action 'none'; frame-ancestors 'self'`,
    );
  });

  it('answers the API with a 503 JSON in Japanese', async () => {
    const url = await frontServer({ up: false }, neverCalled);
    for (const path of ['/api/v1/posts?limit=1', '/api/me', '/api/bookmarks']) {
      const answer = await get(`${url}${path}`, { method: path === '/api/me' ? 'GET' : 'POST' });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(answer.body)).toEqual({ message: OUTAGE_MESSAGE });
    }
  });

  it('still hands health, metrics and static files to their handlers', async () => {
    const url = await frontServer({ up: false }, (req, res) => {
      res.statusCode = req.url === '/api/health' ? 503 : 200;
      res.end(`handled ${req.url}`);
    });
    for (const path of [
      '/_next/static/chunks/main-abc.js',
      '/_next/static/css/app.css',
      '/favicon.ico',
      '/icon.svg',
      '/og-default.png',
      '/robots.txt',
      '/api/metrics',
    ])
      expect(await get(`${url}${path}`)).toMatchObject({ status: 200, body: `handled ${path}` });
    // The health handler's own 503 is its answer, not turned into the outage page.
    expect(await get(`${url}/api/health`)).toMatchObject({
      status: 503,
      body: 'handled /api/health',
    });
  });

  it('lets the page cache answer a content page when the server says it may', async () => {
    const url = await frontServer({ up: false }, (_req, res) => res.end('from the cache'), true);
    expect(await get(`${url}/posts`)).toMatchObject({ status: 200, body: 'from the cache' });
  });

  it('answers HEAD with the headers and no body', async () => {
    const url = await frontServer({ up: false }, neverCalled);
    const answer = await get(`${url}/`, { method: 'HEAD' });
    expect(answer.status).toBe(503);
    expect(answer.body).toBe('');
  });
});

describe('when the database goes away during a request', () => {
  it('turns the framework’s 500 into the 503 page, dropping its headers and body', async () => {
    const state = { up: true };
    const url = await frontServer(state, (req, res) => {
      state.up = false; // the render's query failed: the pool marked the database down
      failingRender(req, res);
    });
    const answer = await get(`${url}/posts/abc`);
    expectOutagePage(answer);
    expect(answer.headers.get('x-powered-by')).toBeNull();
    expect(answer.headers.get('etag')).toBeNull();
    expect(answer.body).not.toContain('Internal Server Error');
  });

  it('does so for an explicit writeHead(500) and an API route too, ended twice', async () => {
    const state = { up: true };
    const url = await frontServer(state, (_req, res) => {
      state.up = false;
      res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error');
      res.end('again'); // a handler's cleanup: no error event, no second body
    });
    const answer = await get(`${url}/api/me`);
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body)).toEqual({ message: OUTAGE_MESSAGE });
  });

  it('gives the 503 JSON the non-page policy, whatever policy its render was given', async () => {
    const state = { up: true };
    const policies = pagePolicies({ secure: false, prerenderedHashes: [] });
    const url = await frontServer(state, (req, res) => {
      res.pagePolicy = givePagePolicy(req, res, policies);
      state.up = false;
      // As the framework answers a route's error: the status, then the body, no writeHead.
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json');
      res.end('{"message":"Internal Server Error"}');
    });
    const answer = await get(`${url}/api/me`);
    expect(answer.status).toBe(503);
    expect(answer.headers.get('content-security-policy')).toBe(NON_PAGE_POLICY);
  });

  it('keeps no copy for the page cache: the copy sees a 503', async () => {
    const state = { up: true };
    const stored: unknown[] = [];
    const url = await frontServer(state, (req, res) => {
      res.copy = new PageCopy((page) => stored.push(page));
      state.up = false;
      failingRender(req, res);
    });
    expect((await get(`${url}/posts`)).status).toBe(503);
    expect(stored).toEqual([]);
  });

  it('leaves a 500 alone while the database is up (a bug is not an outage)', async () => {
    const url = await frontServer({ up: true }, failingRender);
    const answer = await get(`${url}/posts/abc`);
    expect(answer.status).toBe(500);
    expect(answer.body).toContain('Internal Server Error');
  });

  it('cannot change an answer whose headers were sent: it ends as the handler ends it', async () => {
    const state = { up: true };
    const url = await frontServer(state, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.write('<p>shell</p>');
      state.up = false;
      res.statusCode = 500;
      res.end('<p>error boundary</p>');
    });
    expect(await get(`${url}/`)).toMatchObject({
      status: 200,
      body: '<p>shell</p><p>error boundary</p>',
    });
  });
});
