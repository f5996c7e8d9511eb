import { expect, test } from '@playwright/test';
import { E2E_SITE_URL } from './support/settings';

// CSRF: the account endpoints change state only for requests from the site's own pages.
test('a state-changing account request from another origin is refused', async ({ request }) => {
  const foreign = await request.post('/api/account/sign-in', {
    headers: { origin: 'https://evil.example', accept: 'application/json' },
    form: { email: 'someone@example.jp', password: 'whatever-password' },
  });
  expect(foreign.status()).toBe(403);
  expect(((await foreign.json()) as { message: string }).message).toContain('送信できません');

  const own = await request.post('/api/account/sign-in', {
    headers: { origin: E2E_SITE_URL, accept: 'application/json' },
    form: { email: 'someone@example.jp', password: 'whatever-password' },
  });
  expect(own.status()).toBe(401);
});

test('better-auth is reachable over HTTP only for the verification link', async ({ request }) => {
  const signUp = await request.post('/api/auth/sign-up/email', {
    data: { email: 'direct@example.jp', password: 'a good long password', name: 'x' },
  });
  expect(signUp.status()).toBe(405);
  expect((await request.get('/api/auth/get-session')).status()).toBe(404);
});
