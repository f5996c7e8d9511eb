import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminSocket } from '@/server/features/admin/socket';
import { type Database, openDatabase } from './client';
import { LOCK_FILE, acquireDataDirLock, readLockOwner, reserveDataDirLock } from './lock';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');

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

/** Above Linux's largest pid (2^22): never a live process. */
const DEAD_PID = 2 ** 22 + 7;
const staleOwner = (pid = DEAD_PID) =>
  JSON.stringify({ pid, hostname: os.hostname(), startedAt: '2020-01-01T00:00:00.000Z' });

describe('a stale lock', () => {
  it('is taken over when its owner is gone', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-stale-'));
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), staleOwner());
    const lock = acquireDataDirLock(dataDir);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    lock.release();
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.runIf(process.platform === 'linux')(
    'is taken over when its owner was killed and not yet reaped (a zombie)',
    async () => {
      // The background `sleep 1` exits after the shell has become `sleep 30`, which never waits
      // for it (a shell still running would reap it).
      const parent = spawn('sh', ['-c', 'sleep 1 & echo $!; exec sleep 30'], {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      try {
        const zombie = await new Promise<number>((resolve) =>
          createInterface({ input: parent.stdout }).once('line', (line) => resolve(Number(line))),
        );
        const state = () => {
          try {
            return fs.readFileSync(`/proc/${zombie}/stat`, 'utf8').split(') ')[1]?.[0];
          } catch {
            return 'gone';
          }
        };
        await expect.poll(state, { timeout: 10_000 }).toBe('Z');
        expect(() => process.kill(zombie, 0)).not.toThrow(); // it still "exists"
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-zombie-'));
        fs.writeFileSync(path.join(dataDir, LOCK_FILE), staleOwner(zombie));
        const lock = acquireDataDirLock(dataDir);
        expect(readLockOwner(dataDir)?.pid).toBe(process.pid);
        lock.release();
        fs.rmSync(dataDir, { recursive: true, force: true });
      } finally {
        parent.kill('SIGKILL');
      }
    },
  );

  it('is taken over when a process died while taking it over', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-stale-'));
    const stale = staleOwner();
    fs.writeFileSync(path.join(dataDir, LOCK_FILE), stale);
    // The claim lock.ts creates to remove that lock, left by a process that died.
    const hash = createHash('sha256').update(stale).digest('hex').slice(0, 32);
    fs.writeFileSync(path.join(dataDir, `${LOCK_FILE}.claim-${hash}`), staleOwner(DEAD_PID + 1));
    const lock = acquireDataDirLock(dataDir);
    expect(readLockOwner(dataDir)?.pid).toBe(process.pid);
    expect(fs.readdirSync(dataDir)).toEqual([LOCK_FILE]);
    lock.release();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

describe('a lock reserved by npm start', () => {
  it('is handed to the same process once, and refused to anyone else', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-reserved-'));
    const reserved = reserveDataDirLock(dataDir);
    expect(acquireDataDirLock(dataDir)).toBe(reserved);
    expect(() => acquireDataDirLock(dataDir)).toThrow(/使用中/);
    reserved.release();
    expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});

/** Loads lock.ts, says `ready`, then tries to take the lock on each `go` line. */
const CONTENDER = `
import readline from 'node:readline';
const { acquireDataDirLock } = await import(process.env.LOCK_MODULE);
const say = (line) => process.stdout.write(line + '\\n');
let lock;
say('ready');
for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line === 'go') {
    try {
      lock = acquireDataDirLock(process.env.LOCK_DIR);
      say('won');
    } catch (error) {
      say(error.name === 'DataDirLockedError' ? 'locked' : 'error: ' + error.message);
    }
  } else if (line === 'release') {
    lock?.release();
    lock = undefined;
    say('released');
  }
}
`;

/**
 * lock.ts bundled once as plain JavaScript: twenty contenders started through tsx cost about
 * 0.3 CPU-s each to compile it, plain Node about 0.05.
 */
async function bundleLockModule(outDir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = path.join(outDir, 'lock.mjs');
  await build({
    entryPoints: [path.join(import.meta.dirname, 'lock.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    conditions: ['react-server'],
    alias: { '@': path.join(root, 'src') },
    logLevel: 'error',
  });
  return pathToFileURL(outfile).href;
}

function startContender(dataDir: string, lockModule: string) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', CONTENDER], {
    cwd: root,
    env: { ...process.env, LOCK_MODULE: lockModule, LOCK_DIR: dataDir },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: AsyncIterator<string> = createInterface({ input: child.stdout })[
    Symbol.asyncIterator
  ]();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    pid: child.pid,
    send: (line: string) => child.stdin.write(`${line}\n`),
    next: async () => {
      const line = await lines.next();
      if (line.done) throw new Error(`contender ${child.pid} exited`);
      return line.value;
    },
    stop: () => {
      child.stdin.end(); // ends its loop; it exits, releasing a lock it holds
      return exited;
    },
  };
}

describe('a stale lock found by many starters at once', () => {
  it('is taken over by exactly one of them, every time', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-race-'));
    const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-race-module-'));
    const lockModule = await bundleLockModule(bundleDir);
    const contenders = Array.from({ length: 20 }, () => startContender(dataDir, lockModule));
    try {
      expect(await Promise.all(contenders.map((c) => c.next()))).toEqual(
        contenders.map(() => 'ready'),
      );
      for (let round = 1; round <= 25; round++) {
        fs.writeFileSync(path.join(dataDir, LOCK_FILE), staleOwner());
        for (const c of contenders) c.send('go');
        const results = await Promise.all(contenders.map((c) => c.next()));
        const summary = `round ${round}: ${results.join(', ')}`;
        expect(
          results.filter((r) => r !== 'won' && r !== 'locked'),
          summary,
        ).toEqual([]);
        expect(
          results.filter((r) => r === 'won'),
          summary,
        ).toHaveLength(1);
        const winner = contenders[results.indexOf('won')]!;
        expect(readLockOwner(dataDir)?.pid, summary).toBe(winner.pid);
        expect(fs.readdirSync(dataDir), summary).toEqual([LOCK_FILE]);
        winner.send('release');
        expect(await winner.next()).toBe('released');
        expect(fs.existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);
      }
    } finally {
      await Promise.all(contenders.map((c) => c.stop()));
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(bundleDir, { recursive: true, force: true });
    }
  }, 120_000);
});
