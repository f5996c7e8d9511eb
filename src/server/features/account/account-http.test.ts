import { describe, expect, it } from 'vitest';
import { jsonPost } from '@test-support/json-post';
import { handleAccountPost } from './account-http';

/**
 * The HTTP layer of /api/account/{flow}: what is refused before a flow (or the database) runs.
 * The flows themselves are tested in account-flows.integration.test.ts.
 */

const SITE = 'http://localhost:3000';

const post = (flow: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
  handleAccountPost(jsonPost(`${SITE}/api/account/${flow}`, body, headers), flow);

/** The sign-up form posted without JavaScript (and with no Referer). */
const plainSignUp = (body: string) =>
  handleAccountPost(
    new Request(`${SITE}/api/account/sign-up`, {
      method: 'POST',
      headers: {
        host: 'localhost:3000',
        origin: SITE,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body,
    }),
    'sign-up',
  );

const signUp = {
  email: 'hanako@example.jp',
  password: 'kumo-no-ue-no-sora',
  passwordConfirm: 'kumo-no-ue-no-sora',
  consent: 'on',
};

describe('POST /api/account/{flow}', () => {
  it('refuses a NUL in the display name with 400 (PostgreSQL cannot store it: it was a 500)', async () => {
    for (const flow of ['sign-up', 'edit-profile']) {
      const response = await post(flow, { ...signUp, displayName: '山田\u0000花子' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({
        ok: false,
        message: '入力内容を確認してください。',
        fieldErrors: { displayName: '使えない文字が含まれています。' },
      });
    }
  });

  it('sends a plain post with a control character back to its form with the message', async () => {
    const response = await plainSignUp('email=a%40example.jp&displayName=%00&password=secret');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/sign-up');
    expect(response.headers.get('set-cookie')).toContain('axis_flash=');
  });

  it('sends a refused sign-up on the confirmation screen back there without a Referer, plan and next kept', async () => {
    // No password, no consent: refused by the flow's own checks, before any database.
    const fromConfirm = await plainSignUp(
      'email=a%40example.jp&displayName=%E8%AA%AD%E8%80%85&plan=yearly&next=%2Fposts%2Fabc',
    );
    expect(fromConfirm.status).toBe(303);
    expect(fromConfirm.headers.get('location')).toBe(
      '/service-plans/confirm?plan=yearly&next=%2Fposts%2Fabc',
    );
    // An unknown plan, or none: the sign-up page, still with next; a foreign next becomes '/'.
    const fromSignUp = await plainSignUp('email=a%40example.jp&plan=gold&next=%2Fposts%2Fabc');
    expect(fromSignUp.headers.get('location')).toBe('/sign-up?next=%2Fposts%2Fabc');
    const foreign = await plainSignUp('email=a%40example.jp&plan=monthly&next=%2F%2Fevil.example');
    expect(foreign.headers.get('location')).toBe('/service-plans/confirm?plan=monthly');
    // The first call loads the flows' modules (better-auth among them): slow on a busy machine.
  }, 30_000);

  it('answers 413 to a body over the flow’s limit', async () => {
    const response = await post('sign-in', { email: 'a@example.jp', password: 'x'.repeat(20_000) });
    expect(response.status).toBe(413);
  });

  it('answers 404 to an unknown flow and 403 to another site', async () => {
    expect((await post('nope', {})).status).toBe(404);
    expect((await post('constructor', {})).status).toBe(404);
    expect((await post('sign-in', {}, { origin: 'https://evil.example' })).status).toBe(403);
  });
});
