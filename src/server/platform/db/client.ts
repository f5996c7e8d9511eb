import 'server-only';
import { singleton } from '@/lib/singleton';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { env } from '@/env';
import { acquireDataDirLock, makePrivate, restrictUmask } from './lock';
import { type DatabaseAvailability, serverAvailability, watchPool } from './availability';
import { migrateEmbedded, migratePostgres } from './migrate';
import { keepStatementsPrepared } from './pglite-statements';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type Database = {
  db: Db;
  kind: 'embedded' | 'postgres';
  /** Where the data lives, for messages (a directory, or the server without its password). */
  location: string;
  close: () => Promise<void>;
  /** PostgreSQL: the pool's connections now (for /api/metrics). */
  poolStats?: () => { total: number; idle: number; waiting: number };
};

export type OpenOptions = {
  /** postgres://… for a server; unset for the embedded database under dataDir. */
  databaseUrl?: string;
  dataDir: string;
  migrate?: boolean;
  /** PostgreSQL: told of the pool's outages (src/server/platform/db/availability.ts). */
  availability?: DatabaseAvailability;
};

export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}

const endAndThrow = (pool: pg.Pool) => async (error: unknown) => {
  await pool.end().catch(() => {});
  throw error;
};

/**
 * The embedded server's settings beside PGlite's own. PostgreSQL's default 128 MB of shared
 * buffers is zeroed at start inside the WebAssembly heap, which never shrinks: it cost about
 * 130 MiB of resident memory before the first query. The site's database is a few tens of MB and
 * the files stay in the OS page cache, so 16 MB serves it: under load 32 MB held 16 MiB more for
 * no measurable gain in the CPU a query costs (docs/decisions/043-memory.md).
 */
const EMBEDDED_START_PARAMS = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=16MB',
  '-c',
  'maintenance_work_mem=16MB',
];

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const migrate = options.migrate ?? true;
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    pool.on('error', (error) => console.error('[db] idle client error:', error.message));
    if (options.availability) watchPool(pool, options.availability);
    // A start that waits for the server tries again with a new pool: this one must not linger.
    if (migrate) await migratePostgres(pool).catch(endAndThrow(pool));
    return {
      db: drizzlePg({ client: pool, schema }),
      kind: 'postgres',
      location: redactUrl(options.databaseUrl),
      close: () => pool.end(),
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
    };
  }

  const dataDir = path.resolve(options.dataDir);
  restrictUmask(); // before PGlite makes its directories
  const lock = acquireDataDirLock(dataDir); // also makes dataDir 0700
  const pgdata = path.join(dataDir, 'pgdata');
  try {
    const client = await PGlite.create({
      dataDir: pgdata,
      extensions: { pg_trgm },
      startParams: EMBEDDED_START_PARAMS,
    });
    keepStatementsPrepared(client);
    const db = drizzlePglite({ client, schema });
    if (migrate) await migrateEmbedded(db);
    makePrivate(pgdata); // PGlite's own modes ignore the umask (see makePrivate)
    return {
      db,
      kind: 'embedded',
      location: dataDir,
      close: async () => {
        try {
          await client.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    lock.release();
    throw error;
  }
}

/** The process's database: every module instance in the server process shares one. */
const slot = singleton('database', () => ({ current: undefined as Promise<Database> | undefined }));

/** Tests run the app's modules on their own database (undefined: back to the configured one). */
export function useDatabase(database: Database | undefined): void {
  slot.current = database ? Promise.resolve(database) : undefined;
}

/** The app's database, opened (and migrated) on first use. */
export function getDatabase(): Promise<Database> {
  slot.current ??= openDatabase({
    databaseUrl: env().DATABASE_URL,
    dataDir: env().DATA_DIR,
    availability: env().DATABASE_URL ? serverAvailability(env().DATABASE_URL!) : undefined,
  }).catch((error: unknown) => {
    slot.current = undefined;
    throw error;
  });
  return slot.current;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

export async function pingDatabase(db: Db): Promise<void> {
  await db.execute(sql`SELECT 1`);
}

/** Rows of a raw SQL query; both drivers answer `{ rows }`. */
export async function queryRows<Row>(db: Db, query: SQL): Promise<Row[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: Row[] }).rows;
}

/** Whether an error only says the database was closed (shutdown, or a test that has finished). */
export function isClosedDatabaseError(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if (/after calling end on the pool|pglite is closed|closed/i.test(e.message)) return true;
  }
  return false;
}
