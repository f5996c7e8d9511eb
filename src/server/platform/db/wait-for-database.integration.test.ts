import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TcpProxy, startTcpProxy } from '@test-support/db/tcp-proxy';

/**
 * The real start (src/server/boot.ts) in a child process, on a PostgreSQL server that cannot be
 * reached: it waits and says so without the password, a SIGTERM ends it promptly, and, on a
 * server (DATABASE_URL), it goes on by itself once the server answers, while a database that
 * does not exist stops the start at once.
 */

const root = path.resolve(import.meta.dirname, '../../../..');
const serverUrl = process.env.DATABASE_URL;
const PASSWORD = 'pw-never-logged';

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-wait-db-'));
  fs.writeFileSync(
    path.join(dir, 'boot.mts'),
    `const { boot } = await import('@/server/boot');\nawait boot();\nconsole.log('BOOTED');\n`,
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Child = { process: ChildProcess; output: () => string; exited: Promise<number | null> };

function startApp(databaseUrl: string): Child {
  const child = spawn(
    path.join(root, 'node_modules/.bin/tsx'),
    ['--conditions=react-server', path.join(dir, 'boot.mts')],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: path.join(dir, 'data'),
        BILLING_SANDBOX: 'true',
        OPERATOR_NAME: 'テスト株式会社',
        OPERATOR_REPRESENTATIVE: 'テスト',
        OPERATOR_EMAIL: 'ops@example.com',
        OPERATOR_DISCLOSE_ON_REQUEST: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return { process: child, output: () => output, exited };
}

async function waitForOutput(child: Child, pattern: RegExp, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!pattern.test(child.output())) {
    if (Date.now() - started > timeoutMs || child.process.exitCode !== null)
      throw new Error(`no ${pattern} in:\n${child.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const retryLines = (child: Child) =>
  child.output().match(/PostgreSQL に接続できません。.*attempt \d+/g) ?? [];

describe('starting while the PostgreSQL server cannot be reached', () => {
  it('waits, logging each attempt without the password, and a SIGTERM ends it promptly', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: 1 }, { listening: false });
    const url = `postgres://app:${PASSWORD}@127.0.0.1:${proxy.port}/app`;
    const child = startApp(url);
    try {
      await waitForOutput(child, /attempt 2,/, 30_000);
      expect(child.process.exitCode).toBeNull(); // no exit, so no restart loop
      expect(retryLines(child)[0]).toContain(`postgres://app:***@127.0.0.1:${proxy.port}/app`);
      expect(child.output()).toContain('ECONNREFUSED');

      const signalled = Date.now();
      child.process.kill('SIGTERM');
      await child.exited;
      const exitMs = Date.now() - signalled;
      console.log(`[wait-for-database] exited ${exitMs} ms after SIGTERM`);
      expect(exitMs).toBeLessThan(2_000);
      expect(child.output()).not.toContain(PASSWORD);
    } finally {
      child.process.kill('SIGKILL');
    }
  });

  describe.skipIf(!serverUrl)('on a PostgreSQL server', () => {
    const name = `wait_${Date.now()}`;
    let proxy: TcpProxy;
    const admin = () => new pg.Client({ connectionString: serverUrl });

    beforeAll(async () => {
      const client = admin();
      await client.connect();
      await client.query(`CREATE DATABASE "${name}"`);
      await client.end();
      const target = new URL(serverUrl!);
      proxy = await startTcpProxy(
        { host: target.hostname, port: Number(target.port || 5432) },
        { listening: false },
      );
    });
    afterAll(async () => {
      await proxy.close();
      const client = admin();
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    });

    it('goes on with the start by itself once the server answers', async () => {
      const url = new URL(proxy.url(serverUrl!));
      url.pathname = `/${name}`;
      const child = startApp(url.toString());
      try {
        await waitForOutput(child, /attempt 1,/, 30_000);
        await proxy.restore();
        const restored = Date.now();
        await waitForOutput(child, /^BOOTED$/m, 60_000);
        console.log(
          `[wait-for-database] started ${Date.now() - restored} ms after the server came`,
        );
        expect(child.output()).toContain('[db] postgres database ready');
        child.process.kill('SIGTERM');
        expect(await child.exited).toBe(0); // the graceful shutdown, once started
      } finally {
        child.process.kill('SIGKILL');
      }
    });

    it('stops at once when the database does not exist: a setting to fix, not an outage', async () => {
      const url = new URL(serverUrl!);
      url.pathname = '/no_such_database';
      const child = startApp(url.toString());
      try {
        expect(await child.exited).toBe(1);
        expect(child.output()).toContain('起動できません (cannot start)');
        expect(child.output()).toContain('"no_such_database" does not exist');
        expect(retryLines(child)).toEqual([]);
      } finally {
        child.process.kill('SIGKILL');
      }
    });
  });
});
