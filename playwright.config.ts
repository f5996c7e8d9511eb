import { defineConfig, devices } from '@playwright/test';

import { E2E_DATA_DIR, E2E_PORT, E2E_SITE_URL } from './tests/e2e/support/settings';

const port = E2E_PORT;
const dataDir = E2E_DATA_DIR;

export default defineConfig({
  testDir: 'tests/e2e',
  // Two spec files at once against the one server (E2E_WORKERS=1 for one at a time): each spec
  // makes its own users and content, and the tests of one file run in order in one worker.
  fullyParallel: false,
  workers: Number(process.env.E2E_WORKERS ?? 2),
  // Never: a flaky test is fixed (waiting for the real condition), not run again until it passes.
  retries: 0,
  forbidOnly: !!process.env.CI,
  // The HTML report keeps the screenshots the specs attach (appearance.spec.ts).
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]],
  // Two cores run the server, Chromium and axe: a screen checked at two widths takes seconds.
  timeout: 60_000,
  // Two workers share two cores with the server and Chromium: a client-side navigation can take
  // longer than Playwright's default 5 s to settle on a busy machine.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'ja-JP',
    // A trace records every step of every test; CI keeps only its log, so it records none.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH,
      // Chromium as root needs no sandbox; the rest keeps it off this machine's closed network.
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    // Creates the shared users and saves a signed-in state per role (support/roles.ts).
    { name: 'setup', testMatch: /\.setup\.ts$/ },
    { name: 'chromium', use: { ...devices['Desktop Chrome'] }, dependencies: ['setup'] },
  ],
  webServer: {
    // The production server, exactly as `npm start` runs it (it builds first when stale).
    command: 'node --conditions=react-server scripts/launch.mjs start',
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      // The same SITE_URL as a default `npm run build`, so that build is reused.
      SITE_URL: E2E_SITE_URL,
      NEXT_TELEMETRY_DISABLED: '1',
      // Every spec signs in from 127.0.0.1: more than a real office's sign-ins in 10 minutes.
      SIGN_IN_RATE_LIMIT_IP: '1000',
      // A test's letter waits behind every opted-in reader the other specs made: the local
      // outbox takes them as fast as they come.
      NEWSLETTER_RATE_PER_SECOND: '1000',
      // The report keeps warnings and errors; a line per request would drown them.
      LOG_LEVEL: 'warn',
    },
  },
});
