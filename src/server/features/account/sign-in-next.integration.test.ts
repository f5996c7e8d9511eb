import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUpForm } from '@test-support/account-flows';
import { type Database, useDatabase } from '@/server/platform/db/client';
import { createTestDatabase } from '@test-support/db/test-database';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';
import { listOutbox } from '@/server/platform/mail/mailer';
import { signUp } from './account-flows';
import { handleAccountPost } from './account-http';
import { appAuth } from '@/server/features/identity/app-auth';

/**
 * POST /api/account/sign-in as the browser sends it, on a real database: where the answer
 * sends the reader after signing in, whatever `next` the login form carried.
 */

const SITE = 'http://localhost:3000';
const EMAIL = 'next@example.jp';

describe('the sign-in endpoint and `next`', () => {
  let database: Database;
  let ipCounter = 0;

  function post(next: string, options: { json?: boolean } = {}): Promise<Response> {
    const headers = new Headers({
      origin: SITE,
      host: 'localhost:3000',
      'content-type': 'application/x-www-form-urlencoded',
      [CLIENT_IP_HEADER]: `192.0.2.${++ipCounter % 250}`,
    });
    if (options.json) headers.set('accept', 'application/json');
    return handleAccountPost(
      new Request(`${SITE}/api/account/sign-in`, {
        method: 'POST',
        headers,
        body: new URLSearchParams({ email: EMAIL, password: PASSWORD, next }),
      }),
      'sign-in',
    );
  }

  /** Where a browser goes from the answer: the Location of a 303, or redirectTo of the JSON. */
  async function destination(response: Response): Promise<string> {
    if (response.status === 303) return response.headers.get('location') ?? '';
    const body = (await response.json()) as { redirectTo?: string | null };
    return body.redirectTo ?? '';
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    // What getDb() and appAuth() answer inside the endpoint.
    useDatabase(database);
    const auth = await appAuth();
    const created = await signUp({ db: database.db, auth }, signUpForm(EMAIL, '次 の人'), {
      headers: new Headers(),
      ip: '198.51.100.1',
    });
    expect(created.ok).toBe(true);
    const [mail] = await listOutbox(database.db, { to: EMAIL });
    const link = /https?:\/\/\S+/.exec(mail!.textBody ?? '')![0];
    expect((await auth.handler(new Request(link))).status).toBe(302);
  });
  afterAll(async () => {
    useDatabase(undefined);
    await database.close();
  });

  it('returns to the page on the site the reader came from', async () => {
    const plain = await post('/posts/x?from=list');
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/posts/x?from=list');
    expect(plain.headers.getSetCookie().some((c) => c.startsWith('axis.session_token='))).toBe(
      true,
    );
    const json = await post('/account/edit', { json: true });
    expect(json.status).toBe(200);
    expect(await destination(json)).toBe('/account/edit');
  });

  // The value the form field holds for `/login?next=…` with the first in the query.
  it.each([
    ['/%09/evil.example', '/\t/evil.example'],
    ['/%0A/evil', '/\n/evil'],
    ['%0A/evil', '\n/evil'],
    ['/%0D%0ALocation:%20https://evil.example', '/\r\nLocation: https://evil.example'],
    ['//evil.example', '//evil.example'],
    ['/%5Cevil.example', '/\\evil.example'],
    ['https://evil.example', 'https://evil.example'],
    ['/.//evil.example', '/.//evil.example'],
    ['/%00/evil.example', '/\u0000/evil.example'],
  ])(
    'signs in to the home page for next=%s, or refuses; never elsewhere, never a 500',
    async (_query, next) => {
      for (const json of [false, true]) {
        const response = await post(next, { json });
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) continue; // refused before signing in: nowhere to go
        const target = await destination(response);
        expect(new URL(target, SITE).origin).toBe(SITE);
        // Signed in and sent home, or sent back to the login form with a message.
        expect(target === '/' || target.startsWith('/login')).toBe(true);
      }
    },
  );

  it('signs in to the home page for the tab and newline forms', async () => {
    for (const next of ['/\t/evil.example', '/\n/evil']) {
      const plain = await post(next);
      expect(plain.status).toBe(303);
      expect(plain.headers.get('location')).toBe('/');
      const json = await post(next, { json: true });
      expect(json.status).toBe(200);
      expect(await destination(json)).toBe('/');
    }
  });

  it('sends a `next` longer than any page home', async () => {
    const response = await post(`/${'a'.repeat(5000)}`);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/');
  });
});
