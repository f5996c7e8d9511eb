import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { inject } from 'vitest';
import { type Database, openDatabase } from '@/server/db/client';
import * as schema from '@/server/db/schema';
import { databaseUrl, serverQuery } from './postgres-server';
import { PGLITE_TEMPLATE } from './template';

/**
 * A fresh, migrated database for one test file: a copy of the migrated PGlite template, or,
 * when DATABASE_URL is set, a copy of the migrated template database on that PostgreSQL server,
 * dropped on close.
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const client = await PGlite.create({
      loadDataDir: new Blob([fs.readFileSync(PGLITE_TEMPLATE)]),
      extensions: { pg_trgm },
    });
    return {
      db: drizzlePglite({ client, schema }),
      kind: 'embedded',
      location: 'memory',
      close: () => client.close(),
    };
  }

  const name = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await serverQuery(
    serverUrl,
    `CREATE DATABASE "${name}" TEMPLATE "${inject('postgresTemplate')}"`,
  );
  const database = await openDatabase({
    databaseUrl: databaseUrl(serverUrl, name),
    dataDir: 'unused',
    migrate: false, // the template is migrated
  });
  return {
    ...database,
    close: async () => {
      await database.close();
      await serverQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
