import { describe, expect, it, vi } from 'vitest';
import { signUpForm } from '@test-support/account-flows';
import { jsonPost } from '@test-support/json-post';
import { testDataDir, testDatabase } from '@test-support/route-tests';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';
import { listOutbox } from '@/server/platform/mail/mailer';
import { handleAccountPost } from './account-http';

/** /api/account/{flow} over HTTP, on a real database: the wrapper in front of the flows. */

testDataDir('account-http');

const database = testDatabase();

const SITE = 'http://localhost:3000';
let ip = 0;

const signUp = (displayName: string, email: string) =>
  handleAccountPost(
    jsonPost(`${SITE}/api/account/sign-up`, signUpForm(email, displayName), {
      [CLIENT_IP_HEADER]: `192.0.2.${++ip}`,
    }),
    'sign-up',
  );

describe('POST /api/account/sign-up', () => {
  it('answers 400 to a NUL in the display name, where PostgreSQL made it a 500', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const response = await signUp('山田\u0000花子', 'nul@example.jp');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      ok: false,
      fieldErrors: { displayName: '使えない文字が含まれています。' },
    });
    expect(await listOutbox(database.db, { to: 'nul@example.jp' })).toEqual([]);
    expect(log).not.toHaveBeenCalled();
    log.mockRestore();
  });

  it('still signs a reader up through the wrapper', async () => {
    const response = await signUp('山田 花子', 'ok@example.jp');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, redirectTo: '/sign-up?sent=1' });
    expect(await listOutbox(database.db, { to: 'ok@example.jp' })).toHaveLength(1);
  });
});
