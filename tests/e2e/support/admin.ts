import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { E2E_DATA_DIR, E2E_ROOT, E2E_SITE_URL } from './settings';

const run = promisify(execFile);

/** Runs the admin CLI against the e2e server's data directory (through its admin socket). */
export async function admin(...args: string[]): Promise<string[]> {
  return adminIn(E2E_DATA_DIR, ...args);
}

/** The same against another server's data directory. */
export async function adminIn(dataDir: string, ...args: string[]): Promise<string[]> {
  const { stdout } = await run('npm', ['run', '-s', 'admin', '--', ...args], {
    cwd: E2E_ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SITE_URL: E2E_SITE_URL,
    },
  });
  return stdout.trim().split('\n');
}
