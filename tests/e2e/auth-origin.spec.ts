import { expect, test } from '@playwright/test';

// The e2e server's SITE_URL (playwright.config.ts): the only origin allowed to change state.
const SITE = 'http://localhost:3000';

test('a signed-in, state-changing auth request from another origin is refused (CSRF)', async ({
  playwright,
  baseURL,
}) => {
  const api = await playwright.request.newContext({ baseURL });
  const email = `origin-${Date.now()}@example.jp`;
  const signUp = await api.post('/api/auth/sign-up/email', {
    headers: { origin: SITE },
    data: { email, password: 'a good long password', name: '確認用' },
  });
  expect(signUp.status()).toBe(200);

  const foreign = await api.post('/api/auth/update-user', {
    headers: { origin: 'https://evil.example' },
    data: { name: '書き換え' },
  });
  expect(foreign.status()).toBe(403);

  const own = await api.post('/api/auth/update-user', {
    headers: { origin: SITE },
    data: { name: '変更後' },
  });
  expect(own.status()).toBe(200);
  await api.dispose();
});
