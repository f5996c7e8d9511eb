import { randomBytes } from 'node:crypto';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { inject } from 'vitest';
import { type Database, openDatabase } from '@/server/platform/db/client';
import * as schema from '@/server/platform/db/schema';
import { databaseUrl, serverQuery } from './postgres-server';
import { takePooledPglite } from './pglite-pool';

/**
 * A fresh, migrated database for one test file: an embedded one as the migrated template left it
 * (./pglite-pool.ts), or,
 * when DATABASE_URL is set, a copy of the migrated template database on that PostgreSQL server,
 * dropped on close.
 */
export async function createTestDatabase(): Promise<Database> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) {
    const { client, release } = await takePooledPglite();
    return {
      db: drizzlePglite({ client, schema }),
      kind: 'embedded',
      location: 'memory',
      close: release,
    };
  }

  const name = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  await copyTemplate(serverUrl, name);
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

/**
 * CREATE DATABASE … TEMPLATE refuses (55006, "source database is being accessed by other
 * users") while any session is in the template, and autovacuum's workers visit every database
 * in turn; PostgreSQL waits five seconds for one to leave, which two busy cores do not always
 * give it. The copy is asked for again after a pause, a few times, for that error only.
 */
async function copyTemplate(serverUrl: string, name: string): Promise<void> {
  const statement = `CREATE DATABASE "${name}" TEMPLATE "${inject('postgresTemplate')}"`;
  for (let attempt = 1; ; attempt++) {
    try {
      await serverQuery(serverUrl, statement);
      return;
    } catch (error) {
      const inUse = (error as { code?: string }).code === '55006';
      if (!inUse || attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}
