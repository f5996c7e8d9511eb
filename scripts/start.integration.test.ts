import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { acquireDataDirLock } from '@/server/db/lock';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');

type Outcome = { code: number | null; stdout: string; stderr: string };

/**
 * Runs `npm start`'s script. It is killed (with the build it started) the moment it says it
 * is building, so that a regression does not rebuild this tree's `.next`.
 */
function startScript(env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=react-server', 'scripts/launch.mjs', 'start'],
      {
        cwd: root,
        env: { ...process.env, ...env },
        detached: true, // its own process group, so a kill reaches `next build` too
      },
    );
    const out = { stdout: '', stderr: '' };
    const kill = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    };
    const timer = setTimeout(kill, 45_000); // it must stop on its own well before this
    child.stdout.on('data', (chunk: Buffer) => {
      out.stdout += chunk.toString();
      if (out.stdout.includes('building')) kill();
    });
    child.stderr.on('data', (chunk: Buffer) => (out.stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, ...out });
    });
  });
}

/** What a build leaves: its id's mtime and the settings it baked in (null when absent). */
function buildState() {
  const read = (file: string) => {
    try {
      return { mtimeMs: fs.statSync(file).mtimeMs, text: fs.readFileSync(file, 'utf8') };
    } catch {
      return null;
    }
  };
  return {
    buildId: read(path.join(root, '.next', 'BUILD_ID')),
    settings: read(path.join(root, '.next', 'build-settings.json')),
  };
}

describe('npm start', () => {
  it('stops before building when a setting is bad, naming the variable', async () => {
    const result = await run(
      process.execPath,
      ['--conditions=react-server', 'scripts/launch.mjs', 'start'],
      {
        cwd: root,
        env: { ...process.env, PORT: 'abc', GTM_ID: 'UA-1' },
      },
    ).then(
      () => ({ code: 0, stderr: '', stdout: '' }),
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('PORT:');
    expect(result.stderr).toContain('GTM_ID:');
    expect(result.stdout).not.toContain('building');
  });

  it('refuses a data directory another process holds before it decides to build', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-start-locked-'));
    const lock = acquireDataDirLock(dataDir); // the running server, as far as the lock says
    const before = buildState();
    try {
      const result = await startScript({
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        // A setting baked into the build: on its own it would make the start rebuild.
        SITE_NAME: `別のサイト ${process.pid}`,
        PORT: String(20_000 + (process.pid % 20_000)),
      });
      expect(result.stdout).not.toContain('building');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`データディレクトリ ${dataDir} は別のプロセス`);
      expect(result.stderr).toContain(`is in use by pid ${process.pid}`);
      expect(buildState()).toEqual(before);
    } finally {
      lock.release();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('refuses a server database without STRIPE_SECRET_KEY unless BILLING_SANDBOX=true', async () => {
    const before = buildState();
    const result = await startScript({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      STRIPE_SECRET_KEY: '',
      BILLING_SANDBOX: '',
      PORT: String(20_000 + ((process.pid + 1) % 20_000)),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('STRIPE_SECRET_KEY がありません');
    expect(result.stderr).toContain('BILLING_SANDBOX=true');
    expect(result.stdout).not.toContain('building');
    expect(buildState()).toEqual(before);
  });

  it('refuses a server database while the operator details of the 特商法 page are unset', async () => {
    const before = buildState();
    const result = await startScript({
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      BILLING_SANDBOX: 'true',
      OPERATOR_NAME: '',
      OPERATOR_REPRESENTATIVE: '',
      OPERATOR_ADDRESS: '',
      OPERATOR_PHONE: '',
      OPERATOR_EMAIL: '',
      PORT: String(20_000 + ((process.pid + 2) % 20_000)),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('運営者の情報');
    expect(result.stderr).toContain('OPERATOR_NAME');
    expect(result.stdout).not.toContain('building');
    expect(buildState()).toEqual(before);
  });
});
