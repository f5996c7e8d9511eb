import 'server-only';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Pool } from 'pg';
import * as schema from './schema';

export const MIGRATIONS_FOLDER = path.resolve(process.cwd(), 'drizzle');

/** Any fixed number: every process that migrates takes the same session-level advisory lock. */
const MIGRATION_LOCK_KEY = 724_001;

/** Applies the SQL migrations of drizzle/ on a PostgreSQL server, one process at a time. */
export async function migratePostgres(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** PGlite is one process's database (guarded by the data-dir lock); the advisory lock is kept for symmetry. */
export async function migrateEmbedded(db: PgliteDatabase<typeof schema>): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
  try {
    await migratePglite(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await db.execute(sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
  }
}
