import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebResponse, toWebRequest } from './node-bridge';
import { refuseBadRequest } from './request-guard';
import { securityHeaders } from '@/lib/security-headers';

/**
 * The guard in front of a handler built like the front server's content API path (a web
 * Request from the Node request), on a real socket: what a client sees, and that the handler
 * never runs for a refused request.
 */

let server: http.Server;
let port: number;
let handled: string[] = [];
const errors: unknown[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    // As server.ts: the site's headers first, whatever answers.
    for (const { key, value } of securityHeaders(true)) res.setHeader(key, value);
    if (refuseBadRequest(req, res)) return;
    handled.push(`${req.method} ${req.url}`);
    // As server.ts: toWebRequest throws synchronously on a method undici refuses (TRACE…).
    try {
      const request = toWebRequest(req, `http://localhost:${port}`);
      void sendWebResponse(new Response(`ok ${request.method}`), res);
    } catch (error) {
      errors.push(error);
      res.destroy();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

type Answer = { status: number; headers: http.IncomingHttpHeaders; body: string };

function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** What the server answers to bytes written on a raw socket (for methods http.request cannot send). */
function raw(bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

describe('the request guard on a real server', () => {
  it('sends the site’s security headers with refusals and with answers', async () => {
    for (const answer of [await send('TRACE', '/'), await send('GET', '/api/v1/posts')]) {
      expect(answer.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'strict-origin-when-cross-origin',
        'x-frame-options': 'SAMEORIGIN',
        'strict-transport-security': 'max-age=31536000',
      });
    }
  });

  it('answers TRACE with 405 and Allow, on pages and on the content API, and runs nothing', async () => {
    handled = [];
    for (const path of ['/', '/posts/abc', '/api/v1/posts']) {
      const answer = await send('TRACE', path);
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(answer.body).toBe('この方法では利用できません。');
    }
    expect(handled).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('answers a method the site does not serve with 405, and a token HTTP does not know with 400', async () => {
    for (const method of ['PROPFIND', 'COPY', 'LOCK', 'MKCOL']) {
      const answer = await send(method, '/terms');
      expect(answer.status).toBe(405); // the fuzz run's finding: these were a 501
      expect(answer.headers.allow).toBe('GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS');
    }
    expect((await send('PROPFIND', '/api/v1/posts')).status).toBe(405);
    // Node's parser refuses an unknown token itself, before any listener.
    expect(await raw('FOO / HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await raw('TRACK / HTTP/1.1\r\nHost: x\r\n\r\n')).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(handled).toEqual([]);
  });

  it('answers 400 to a page POST that Next.js would take for a server action', async () => {
    const answer = await send(
      'POST',
      '/posts/abc',
      { rsc: '1', 'content-type': 'application/x-www-form-urlencoded' },
      'a=1',
    );
    expect(answer.status).toBe(400);
    expect(handled).toEqual([]);
  });

  it('answers a big page POST at once and closes rather than reading it', async () => {
    const answered = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/posts/abc',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0, sent });
          request.destroy();
        },
      );
      request.on('error', (error) => (sent > 0 ? undefined : reject(error)));
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (sent < 400 * 1024 * 1024 && !request.destroyed) {
          sent += chunk.length;
          if (!request.write(chunk)) return void request.once('drain', pump);
        }
      };
      pump();
    });
    expect(answered.status).toBe(400);
    expect(answered.sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('answers 400 to a malformed Next-Router-State-Tree and serves a valid one', async () => {
    handled = [];
    for (const state of ['%E0%A4%A', '%5B%5B%5B', encodeURIComponent('[1,{}]')]) {
      expect(
        (await send('GET', '/posts', { rsc: '1', 'next-router-state-tree': state })).status,
      ).toBe(400);
    }
    expect(handled).toEqual([]);
    const valid = encodeURIComponent(
      JSON.stringify(['', { children: ['posts', {}] }, null, null, 0]),
    );
    const ok = await send('GET', '/posts', { rsc: '1', 'next-router-state-tree': valid });
    expect(ok.status).toBe(200);
    expect(handled).toEqual(['GET /posts']);
  });

  it('answers 404 to a form post with RSC: 1 to an API path that does not exist', async () => {
    handled = [];
    // The fuzz run's finding: Next.js took these for a server action and answered 500.
    for (const path of ['/api/nothing-here', '/api/me/extra', '/api/v2/posts', '/api/']) {
      const answer = await send(
        'POST',
        path,
        { rsc: '1', 'content-type': 'application/x-www-form-urlencoded' },
        'a=1',
      );
      expect(answer.status, path).toBe(404);
    }
    expect((await send('PUT', '/api/admin/nothing', {}, '{}')).status).toBe(404);
    expect(handled).toEqual([]);
  });

  it('answers 400 to the asterisk and absolute forms of a request target, and never redirects', async () => {
    handled = [];
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      const answer = await raw(`${method} * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(answer, `${method} *`).toMatch(/^HTTP\/1\.1 400 /);
    }
    for (const target of ['http://evil.example/posts', 'https://evil.example/', 'posts']) {
      const answer = await raw(`GET ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(answer, target).toMatch(/^HTTP\/1\.1 400 /);
      expect(answer.toLowerCase()).not.toContain('location:');
    }
    expect(handled).toEqual([]);
  });

  it('passes what the site serves: page GETs, API posts, content API writes', async () => {
    handled = [];
    expect((await send('GET', '/')).body).toBe('ok GET');
    expect(
      (await send('POST', '/api/contact', { 'content-type': 'application/json' }, '{}')).body,
    ).toBe('ok POST');
    expect((await send('PATCH', '/api/v1/posts/a', {}, '{}')).body).toBe('ok PATCH');
    expect((await send('OPTIONS', '/api/v1/posts')).body).toBe('ok OPTIONS');
    expect(handled).toEqual([
      'GET /',
      'POST /api/contact',
      'PATCH /api/v1/posts/a',
      'OPTIONS /api/v1/posts',
    ]);
    expect(errors).toEqual([]);
  });
});
