import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { type Database, openDatabase, queryRows } from './client';
import { MIGRATIONS_FOLDER } from './migrate';

const journal = JSON.parse(
  fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta/_journal.json'), 'utf8'),
) as {
  entries: { tag: string }[];
};

async function appliedCount(database: Database): Promise<number> {
  const [row] = await queryRows<{ count: number }>(
    database.db,
    sql`SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations`,
  );
  return row?.count ?? 0;
}

describe(`migrations (${process.env.DATABASE_URL ? 'PostgreSQL server' : 'embedded PGlite'})`, () => {
  const database = testDatabase({ global: false });

  it('applies every migration of drizzle/ and creates the schema', async () => {
    expect(await appliedCount(database)).toBe(journal.entries.length);
    const tables = await queryRows<{ table_name: string }>(
      database.db,
      sql`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
    );
    expect(tables.map((t) => t.table_name)).toContain('audit_events');
  });
});

describe.runIf(process.env.DATABASE_URL)('migrations on a PostgreSQL server', () => {
  const serverUrl = process.env.DATABASE_URL ?? '';
  const name = `test_migrate_${randomBytes(4).toString('hex')}`;
  const databaseUrl = () => {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('is safe when several processes start at once (advisory lock), and idempotent', async () => {
    const opened = await Promise.all(
      [1, 2, 3].map(() => openDatabase({ databaseUrl: databaseUrl(), dataDir: 'unused' })),
    );
    expect(await appliedCount(opened[0]!)).toBe(journal.entries.length);
    await Promise.all(opened.map((d) => d.close()));
    const again = await openDatabase({ databaseUrl: databaseUrl(), dataDir: 'unused' });
    expect(await appliedCount(again)).toBe(journal.entries.length);
    await again.close();
  });
});
