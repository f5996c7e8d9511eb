import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { adminIn } from './support/admin';
import { E2E_PORT, E2E_ROOT, E2E_SITE_URL } from './support/settings';

// SPEC §2: with AUTH_CHECK_REDIRECT=true the server sends an anonymous visitor to /about (307)
// from every page but the public ones. A second server, on the same build, runs with the flag.
const PORT = E2E_PORT + 1;
const DATA_DIR = path.join(E2E_ROOT, '.tmp/e2e-redirect-data');
const BASE = `http://127.0.0.1:${PORT}`;
let server: ChildProcess;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fs.rmSync(DATA_DIR, { recursive: true, force: true });
  server = spawn(process.execPath, ['--conditions=react-server', 'scripts/launch.mjs', 'start'], {
    cwd: E2E_ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR,
      DATABASE_URL: '',
      SITE_URL: E2E_SITE_URL,
      AUTH_CHECK_REDIRECT: 'true',
      NEXT_TELEMETRY_DISABLED: '1',
    },
    stdio: 'ignore',
    detached: true,
  });
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${BASE}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the second server did not start');
});

test.afterAll(() => {
  if (server.pid) process.kill(-server.pid, 'SIGTERM');
});

test('an anonymous visitor is sent to /about before any page HTML; public paths and assets are not', async ({
  playwright,
}) => {
  const api = await playwright.request.newContext({ baseURL: BASE, maxRedirects: 0 });
  for (const pagePath of ['/', '/posts/post-001', '/jobs', '/account', '/search?q=x']) {
    const res = await api.get(pagePath);
    expect(res.status(), pagePath).toBe(307);
    expect(res.headers().location, pagePath).toMatch(/\/about$/);
    expect(await res.text(), pagePath).not.toContain('<html');
  }
  for (const pagePath of [
    '/login',
    '/sign-up',
    '/account/forgot-password',
    '/account/reset-password',
    '/api/health',
    '/favicon.ico',
  ]) {
    expect((await api.get(pagePath)).status(), pagePath).toBe(200);
  }
  // Signed-in-only account pages are exempt from this redirect; they send to /login themselves.
  expect((await api.get('/account/edit')).headers().location).toContain('/login');
  expect((await api.get('/api/v1/posts')).status()).toBe(401); // the API's own answer
  // A made-up session cookie is still anonymous.
  const forged = await api.get('/', { headers: { cookie: 'axis.session_token=forged.value' } });
  expect(forged.status()).toBe(307);
  await api.dispose();
});

test('a signed-in member reads every page', async ({ playwright }) => {
  const email = `redirect-${Date.now()}@example.jp`;
  await adminIn(DATA_DIR, 'create-user', '--email', email, '--password', 'hoshi-no-machi-3');
  const api = await playwright.request.newContext({ baseURL: BASE, maxRedirects: 0 });
  const signedIn = await api.post('/api/account/sign-in', {
    headers: { accept: 'application/json' },
    form: { email, password: 'hoshi-no-machi-3' },
  });
  expect(signedIn.status()).toBe(200);
  expect((await api.get('/')).status()).toBe(200);
  await api.dispose();
});

test('without the flag (any value but the text true) nothing is redirected', async ({
  playwright,
  baseURL,
}) => {
  const api = await playwright.request.newContext({ baseURL, maxRedirects: 0 });
  expect((await api.get('/')).status()).toBe(200);
  await api.dispose();
});
