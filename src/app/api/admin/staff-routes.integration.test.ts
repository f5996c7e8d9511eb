import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '@/server/features/admin/commands';
import { signIn } from '@/server/features/account/account-flows';
import { appAuth } from '@/server/features/identity/app-auth';
import { SITE, expectBare404, testDataDir, testDatabase } from '@test-support/route-tests';

/**
 * Every route file under src/app/api/admin, called as Next calls it, with real sessions on a
 * real database: a visitor and a plain member get the bare 404 of a route that does not exist,
 * whatever they send (a body past any ceiling, a broken multipart body, junk in the query), and
 * not one byte of their body is read. A new route that reads its input before the role check
 * fails here (docs/decisions/041-shared-helpers-and-the-duplicate-count.md, amendment of
 * 2026-11-29).
 */

testDataDir('staff-routes');
const database = testDatabase();

const ROOT = path.join(import.meta.dirname);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Handler = (request: Request, context: { params: Promise<object> }) => Promise<Response>;

const routeFiles = (fs.readdirSync(ROOT, { recursive: true }) as string[])
  .filter((file) => path.basename(file) === 'route.ts')
  .sort();

/** A value of the right shape for each dynamic segment, so that the role is what refuses. */
const PARAMS: Record<string, string> = {
  id: '0d8f7a3e-5b1c-4e2a-9f60-7c3b2a1d4e5f',
  userId: 'member0000000000000000000000000a',
  endpoint: 'posts',
  contentId: 'a-post',
  sendId: '6a1f2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b',
};
const paramsOf = (file: string): Record<string, string> =>
  Object.fromEntries(
    [...file.matchAll(/\[(\w+)\]/g)].map(([, name]): [string, string] => [name!, PARAMS[name!]!]),
  );

/** A body that counts the chunks anyone pulls from it; nothing is pulled unless read. */
function endlessBody(head: string) {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        controller.enqueue(new TextEncoder().encode(pulled++ === 0 ? head : 'x'.repeat(65_536)));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

const BODIES = {
  'past any ceiling': {
    'content-type': 'application/x-www-form-urlencoded',
    'content-length': String(2 ** 40),
    head: 'name=',
  },
  'broken multipart': {
    'content-type': 'multipart/form-data; boundary=fuzz',
    head: '--fuzz\r\nContent-Disposition: form-data; name="file"; filename="a\r\nb.png"\r\n\r\n',
  },
};

const cookies = new Map<'member' | 'admin', string>();

beforeAll(async () => {
  let ip = 0;
  for (const role of ['member', 'admin'] as const) {
    const email = `${role}@example.jp`;
    const password = 'kumo-no-ue-no-sora';
    await runAdminCommand({ database, actor: 'cli:test' }, 'create-user', {
      email,
      password,
      role,
    });
    const result = await signIn(
      { db: database.db, auth: await appAuth() },
      { email, password },
      { headers: new Headers(), ip: `192.0.2.${++ip}` },
    );
    if (!result.ok) throw new Error(`sign-in failed for ${email}`);
    cookies.set(role, result.setCookies!.map((c) => c.split(';')[0]).join('; '));
  }
});

async function handlersOf(file: string): Promise<[string, Handler][]> {
  const routeModule = (await import(path.join(ROOT, file))) as Record<string, unknown>;
  return METHODS.filter((m) => typeof routeModule[m] === 'function').map((m) => [
    m,
    routeModule[m] as Handler,
  ]);
}

function call(
  handler: Handler,
  file: string,
  method: string,
  init: { cookie?: string; accept: string; body?: keyof typeof BODIES },
) {
  const url = `${SITE}/api/admin/${path.dirname(file)}`.replace(
    /\[(\w+)\]/g,
    (_, n: string) => PARAMS[n]!,
  );
  const headers: Record<string, string> = {
    host: 'localhost:3000',
    origin: SITE,
    accept: init.accept,
    ...(init.cookie ? { cookie: init.cookie } : {}),
  };
  let body: ReturnType<typeof endlessBody> | undefined;
  let request: Request;
  if (method === 'GET') {
    request = new Request(`${url}?q=%00&kind=pdf&page=0&table=x&audience=x&url=x`, { headers });
  } else {
    const { head, ...bodyHeaders } = BODIES[init.body!];
    body = endlessBody(head);
    request = new Request(url, {
      method,
      headers: { ...headers, ...bodyHeaders },
      body: body.stream,
      duplex: 'half',
    } as RequestInit);
  }
  return {
    answer: handler(request, { params: Promise.resolve(paramsOf(file)) }),
    pulled: () => body?.pulled() ?? 0,
  };
}

describe('every staff route (src/app/api/admin/**/route.ts)', () => {
  it('is found: 34 files, each with a handler', async () => {
    expect(routeFiles).toHaveLength(34);
    for (const file of routeFiles) expect(await handlersOf(file)).not.toEqual([]);
  });

  it.each(['visitor', 'member'] as const)(
    'answers a %s the bare 404 before reading anything they sent',
    async (who) => {
      const cookie = who === 'member' ? cookies.get('member') : undefined;
      for (const file of routeFiles) {
        for (const [method, handler] of await handlersOf(file)) {
          for (const body of method === 'GET' ? [undefined] : (Object.keys(BODIES) as [])) {
            for (const accept of ['application/json', 'text/html']) {
              const sent = call(handler, file, method, { cookie, accept, body });
              const response = await sent.answer;
              const where = `${method} ${file} (${body ?? 'query'}, ${accept})`;
              expect(response.status, where).toBe(404);
              expectBare404(response);
              expect(sent.pulled(), where).toBe(0);
            }
          }
        }
      }
    },
  );

  it('lets an admin past the check: the same body is read, and refused', async () => {
    for (const file of routeFiles) {
      for (const [method, handler] of await handlersOf(file)) {
        if (method === 'GET') continue;
        const sent = call(handler, file, method, {
          cookie: cookies.get('admin'),
          accept: 'application/json',
          body: 'broken multipart',
        });
        const response = await sent.answer;
        expect([400, 413], `${method} ${file}`).toContain(response.status);
        expect(sent.pulled(), `${method} ${file}`).toBeGreaterThan(0);
      }
    }
  });
});
