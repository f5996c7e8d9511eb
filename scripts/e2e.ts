/**
 * `npm run test:e2e`: the Playwright suite in Chromium (CHROME_PATH, else Debian's headless
 * shell, else its full browser), against a production server on a fresh embedded database.
 * The headless shell (`chromium-headless-shell`, the old headless mode as its own binary) draws
 * the same pages with about a third less CPU than the full browser run headless, which on two
 * cores is minutes of CI.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const candidates = [
  process.env.CHROME_PATH,
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];
const chrome = candidates.find((p): p is string => !!p && fs.existsSync(p));
if (!chrome) {
  console.error(
    [
      'Chromium が見つかりません (Chromium not found).',
      'Debian / Ubuntu:  sudo apt-get install -y chromium-headless-shell',
      'または既存の Chrome / Chromium のパスを CHROME_PATH に設定してください:',
      '  CHROME_PATH=/path/to/chrome npm run test:e2e',
    ].join('\n'),
  );
  process.exit(1);
}

for (const dir of ['.tmp/e2e-data', '.tmp/e2e-auth'])
  fs.rmSync(path.join(root, dir), { recursive: true, force: true });
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, CHROME_PATH: chrome } },
);
process.exit(result.status ?? 1);
