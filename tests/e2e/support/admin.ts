import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { E2E_DATA_DIR, E2E_ROOT } from './settings';

const run = promisify(execFile);

/** Runs the admin CLI against the e2e server's data directory (through its admin socket). */
export async function admin(...args: string[]): Promise<string[]> {
  const { stdout } = await run('npm', ['run', '-s', 'admin', '--', ...args], {
    cwd: E2E_ROOT,
    env: {
      ...process.env,
      DATA_DIR: E2E_DATA_DIR,
      DATABASE_URL: '',
      SITE_URL: 'http://localhost:3000',
    },
  });
  return stdout.trim().split('\n');
}
