import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendWebResponse, toWebRequest } from './node-bridge';
import { createFrontServer } from './front-response';
import { readBodyBytes } from '@/server/platform/http/read-body';

/**
 * A handler that refuses a body it did not read to the end (too large) leaves the rest of it on
 * a kept-alive connection. The next request a client's pool sends on that connection must still
 * be answered, at once: the fuzz run's clients waited 30 s for it.
 */

const LIMIT = 1_000;
let server: ReturnType<typeof createFrontServer>;
let port: number;
let connections = 0;

beforeAll(async () => {
  // The front server's response closes the connection of a body still arriving (front-response.ts).
  server = createFrontServer((req, res) => {
    const request = toWebRequest(req, `http://127.0.0.1:${port}`);
    void (async () => {
      if (request.method === 'POST') {
        const body = await readBodyBytes(request, LIMIT);
        if (!body.ok) return sendWebResponse(new Response('too large', { status: 413 }), res);
      }
      return sendWebResponse(new Response(`ok ${request.method}`), res);
    })();
  });
  server.on('connection', () => connections++);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function send(
  agent: http.Agent,
  method: string,
  body?: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { agent, host: '127.0.0.1', port, method, path: '/', headers, timeout: 3_000 },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 3 s')));
    request.on('error', reject);
    request.end(body);
  });
}

/** Runs the requests on one kept-alive connection (a pool of one socket), then drops it. */
async function onOneConnection(requests: (agent: http.Agent) => Promise<void>): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    await requests(agent);
  } finally {
    agent.destroy();
  }
}

describe('a body refused before it was read to the end', () => {
  const huge = Buffer.alloc(200_000, 'a');

  it.each([
    ['declared too large', {}],
    ['chunked, cut while read', { 'transfer-encoding': 'chunked' }],
  ])('leaves the connection able to answer the next request (%s)', (_how, headers) =>
    onOneConnection(async (agent) => {
      expect((await send(agent, 'POST', huge, headers)).status).toBe(413);
      expect(await send(agent, 'GET')).toEqual({ status: 200, body: 'ok GET' });
    }),
  );

  it('answers the next request after a small body it did not read', () =>
    onOneConnection(async (agent) => {
      const small = Buffer.alloc(5_000, 'a');
      expect((await send(agent, 'POST', small)).status).toBe(413);
      expect((await send(agent, 'POST', small, { 'transfer-encoding': 'chunked' })).status).toBe(
        413,
      );
      expect(await send(agent, 'GET')).toEqual({ status: 200, body: 'ok GET' });
    }));

  it('keeps the connection after a body it read, and reads the next body', () =>
    onOneConnection(async (agent) => {
      expect((await send(agent, 'POST', huge)).status).toBe(413);
      const before = connections;
      for (let i = 0; i < 3; i++) {
        expect(await send(agent, 'POST', Buffer.from('small'))).toEqual({
          status: 200,
          body: 'ok POST',
        });
      }
      expect(connections - before).toBe(1);
    }));
});
