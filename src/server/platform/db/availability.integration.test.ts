import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase, pingDatabase, queryRows } from './client';
import { DatabaseAvailability, isOutageError, probeServer } from './availability';
import { randomBytes } from 'node:crypto';
import { databaseUrl, serverQuery } from '@test-support/db/postgres-server';
import { type TcpProxy, startTcpProxy } from '@test-support/db/tcp-proxy';

/**
 * The pool of the app on a PostgreSQL server reached through a proxy that the test cuts and
 * restores: the outage is noticed, queries fail with an outage error (never a crash), and the
 * app is back by itself once the server answers again. Needs a server (DATABASE_URL, as CI runs
 * it with scripts/with-postgres.sh): the embedded database lives in the process and cannot go
 * away. The test terminates every session of a database, so it works in one of its own: in the
 * server's own database it killed other test files' CREATE DATABASE sessions (CI, 2026-11-29).
 */

const serverUrl = process.env.DATABASE_URL;

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

describe.skipIf(!serverUrl)('a PostgreSQL server that goes away and comes back', () => {
  let proxy: TcpProxy;
  let database: Database;
  let availability: DatabaseAvailability;
  const lines: string[] = [];
  const ownName = `availability_${randomBytes(4).toString('hex')}`;
  let ownUrl: string;

  beforeAll(async () => {
    await serverQuery(serverUrl!, `CREATE DATABASE "${ownName}"`);
    ownUrl = databaseUrl(serverUrl!, ownName);
    const target = new URL(serverUrl!);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const url = proxy.url(ownUrl);
    availability = new DatabaseAvailability({
      probe: () => probeServer(url),
      log: (line) => lines.push(line),
    });
    database = await openDatabase({
      databaseUrl: url,
      dataDir: 'unused',
      migrate: false,
      availability,
    });
  });
  afterAll(async () => {
    availability.stop();
    await proxy.restore().catch(() => {});
    await database.close();
    await proxy.close();
    await serverQuery(serverUrl!, `DROP DATABASE IF EXISTS "${ownName}" WITH (FORCE)`);
  });

  it('is available while queries succeed, and a query error that is no outage changes nothing', async () => {
    await pingDatabase(database.db);
    await expect(database.db.execute(sql`SELEC 1`)).rejects.toThrow();
    await expect(database.db.execute(sql`SELECT 1/0`)).rejects.toThrow();
    expect(availability.available).toBe(true);
  });

  it('notices the cut at once, fails queries with an outage error, and recovers by itself', async () => {
    // Connections idle in the pool and one busy with a query when the server goes.
    await Promise.all([1, 2, 3].map(() => pingDatabase(database.db)));
    const busy = database.db.execute(sql`SELECT pg_sleep(5)`).then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));

    const cutAt = Date.now();
    await proxy.cut();
    const detectMs = await waitFor(() => !availability.available, 1_000);
    expect(isOutageError(await busy)).toBe(true);
    const refused = await pingDatabase(database.db).then(
      () => null,
      (error: unknown) => error,
    );
    expect(isOutageError(refused)).toBe(true);

    // Still down while the server is away, however long the probe keeps trying.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(availability.available).toBe(false);

    await proxy.restore();
    const recoverMs = await waitFor(() => availability.available, 5_000);
    await pingDatabase(database.db); // the pool is usable again, nothing restarted
    console.log(
      `[outage] detected in ${detectMs} ms; up again ${recoverMs} ms after the server returned ` +
        `(${Date.now() - cutAt} ms in all)`,
    );
    expect(recoverMs).toBeLessThan(3_000); // probes at most 2 s apart, each bounded at 1.5 s
    expect(lines.some((line) => line.includes('復旧しました'))).toBe(true);
  });

  it('notices a server that stops accepting from the first connect refused', async () => {
    const held = await database.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT 1`);
      await proxy.refuseNew(); // this transaction's connection stays open
      expect(database.poolStats!().idle).toBe(0); // so the ping needs a new one
      const refused = await pingDatabase(database.db).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isOutageError(refused)).toBe(true);
      expect(availability.available).toBe(false);
      return queryRows<{ two: number }>(tx, sql`SELECT 2 AS two`);
    });
    expect(held).toEqual([{ two: 2 }]);
    await proxy.restore();
    await waitFor(() => availability.available, 3_000);
  });

  it('treats a connection the server terminates (57P01) as an outage, back at the next probe', async () => {
    await Promise.all([1, 2].map(() => pingDatabase(database.db)));
    const admin = new (await import('pg')).default.Client({ connectionString: ownUrl });
    await admin.connect();
    try {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE pid <> pg_backend_pid() AND datname = current_database()
            AND backend_type = 'client backend'`,
      );
    } finally {
      await admin.end();
    }
    await waitFor(() => !availability.available, 1_000);
    const recoverMs = await waitFor(() => availability.available, 3_000);
    expect(recoverMs).toBeLessThan(2_500);
    await pingDatabase(database.db);
  });
});
