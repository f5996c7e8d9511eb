import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase } from '@test-support/db/test-database';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { NON_PAGE_POLICY, securityHeaders } from '@/lib/security-headers';
import { GET as health } from '@/app/api/health/route';
import { GET as me } from '@/app/api/me/route';
import { POST as webhook } from '@/app/api/webhooks/billing/route';
import { givePagePolicy, pagePolicies } from './csp';
import { createFrontServer } from './front-response';
import { toWebRequest } from './node-bridge';

/**
 * The policy of the framework's JSON answers on a server built as the front server is (its
 * headers first, then the page policy around the framework), with the real route handlers
 * answered the way Next.js writes a route handler's Response: each header with setHeader,
 * then the body (so the head is written implicitly). The attack run's finding: these carried
 * the page policy, not `default-src 'none'`.
 */

const ROUTES: Record<string, (request: Request) => Promise<Response>> = {
  'GET /api/health': () => health(),
  'GET /api/me': (request) => me(request),
  'POST /api/webhooks/billing': (request) => webhook(request),
};

/** As next/dist/server/send-response.js: headers one by one, status, then the body. */
async function sendAsNext(response: Response, res: http.ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(Buffer.from(await response.arrayBuffer()));
}

let database: Database;
let server: ReturnType<typeof createFrontServer>;
let origin: string;

beforeAll(async () => {
  vi.stubEnv('APP_SECRET', 's'.repeat(40));
  database = await createTestDatabase();
  useDatabase(database);
  const framework = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const route = ROUTES[`${req.method} ${(req.url ?? '/').split('?')[0]}`];
    if (route) return sendAsNext(await route(toWebRequest(req, origin)), res);
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end('<!doctype html><p>page</p>');
  };
  const policies = pagePolicies({ secure: false, prerenderedHashes: [] });
  server = createFrontServer((req, res) => {
    for (const { key, value } of securityHeaders(false)) res.setHeader(key, value);
    res.pagePolicy = givePagePolicy(req, res, policies);
    void framework(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  useDatabase(undefined);
  await database.close();
  vi.unstubAllEnvs();
});

describe('the policy of JSON answers', () => {
  it("gives /api/health, /api/me and the billing webhook default-src 'none'", async () => {
    const answers = [
      await fetch(`${origin}/api/health`),
      await fetch(`${origin}/api/me`),
      await fetch(`${origin}/api/webhooks/billing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
        body: '{}',
      }),
    ];
    for (const answer of answers) {
      expect(answer.headers.get('content-type'), answer.url).toMatch(/^application\/json/);
      expect(answer.headers.get('content-security-policy'), answer.url).toBe(NON_PAGE_POLICY);
    }
  });

  it('keeps the page policy on pages', async () => {
    const page = await fetch(`${origin}/posts`);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-/);
  });
});
