import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSocket } from '@/server/admin/socket';
import { type Database, openDatabase } from './client';
import { LOCK_FILE, acquireDataDirLock } from './lock';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

/** Runs an npm script as a separate process on the given data directory. */
async function npmRun(script: string, dataDir: string, args: string[] = []) {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
  try {
    const { stdout, stderr } = await run('npm', ['run', '-s', script, '--', ...args], {
      cwd: root,
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('the embedded database directory', () => {
  let dataDir: string;
  let database: Database;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-lock-'));
    database = await openDatabase({ dataDir });
  }, 120_000);
  afterAll(async () => {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('is locked by the process that opened it', () => {
    const owner = JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8')) as {
      pid: number;
    };
    expect(owner.pid).toBe(process.pid);
    expect(() => acquireDataDirLock(dataDir)).toThrow(/使用中/);
  });

  it('cannot be opened by a second process', async () => {
    const result = await npmRun('db:migrate', dataDir);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain(`pid ${process.pid}`);
  });

  it('lets the admin CLI work through the running server, and says so when it cannot', async () => {
    const refused = await npmRun('admin', dataDir, ['db-status']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('管理ソケットに接続できません');

    const server = await startAdminSocket(database, dataDir);
    try {
      const ok = await npmRun('admin', dataDir, ['db-status']);
      expect(ok.stderr).toBe('');
      expect(ok.stdout).toContain(`database: embedded (${dataDir})`);
      expect(ok.stdout).toMatch(/migrations applied: [1-9]/);

      const bad = await npmRun('admin', dataDir, ['audit-log', '--limit', '0']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--limit');
    } finally {
      server.close();
    }
  });
});

describe('a stale lock', () => {
  it('is taken over when its owner is gone', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-stale-'));
    fs.writeFileSync(
      path.join(dataDir, LOCK_FILE),
      JSON.stringify({ pid: 2 ** 22 + 7, hostname: os.hostname(), startedAt: '2020-01-01' }),
    );
    const lock = acquireDataDirLock(dataDir);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    lock.release();
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
