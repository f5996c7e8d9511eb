import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { keepStatementsPrepared } from '@/server/platform/db/pglite-statements';
import { PGLITE_TEMPLATE } from './template';

/**
 * Embedded databases for test files, reused within one test process. Starting a PGlite from the
 * migrated template costs most of a second of CPU, and a run opens about a hundred; emptying a
 * returned one costs a few milliseconds. A returned database is taken back only when it is as the
 * template left it apart from its rows: after the reset its schema (tables, columns, indexes,
 * constraints, functions, triggers, extensions) must match a fresh one's, or it is closed instead.
 * A test gets a handle that fails like a closed PGlite once it is returned, so nothing a test
 * left running can write into the next file's database.
 */

type Pool = { idle: PGlite[]; schema: Promise<string> | null };

/**
 * On globalThis under its own name: the named singletons and the modules are reset before every
 * file (tests/support/fresh-file-state.ts), and the pool must outlive them.
 */
function pool(): Pool {
  const holder = globalThis as typeof globalThis & { __axisTestPglitePool?: Pool };
  return (holder.__axisTestPglitePool ??= { idle: [], schema: null });
}

/** As the site opens its embedded database: statements kept prepared (pglite-statements.ts). */
async function start(): Promise<PGlite> {
  const client = await PGlite.create({
    loadDataDir: new Blob([fs.readFileSync(PGLITE_TEMPLATE)]),
    extensions: { pg_trgm },
  });
  keepStatementsPrepared(client);
  return client;
}

/** Every object a migration or a test could add, change or drop, as one digest. */
async function schemaDigest(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ digest: string }>(`
    SELECT md5(string_agg(x, E'\\n' ORDER BY x)) AS digest FROM (
      SELECT 'rel ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' ' || coalesce((
          SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' '
            || a.attnotnull || ' ' || coalesce(pg_get_expr(d.adbin, d.adrelid), ''), ', ' ORDER BY a.attnum)
          FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
          WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') AS x
        FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast')
      UNION ALL SELECT 'idx ' || schemaname || ' ' || indexdef FROM pg_indexes
        WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
      UNION ALL SELECT 'con ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid)
        FROM pg_constraint WHERE connamespace <> 'pg_catalog'::regnamespace
      UNION ALL SELECT 'fn ' || p.oid::regprocedure::text || ' ' || md5(coalesce(p.prosrc, ''))
        FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname NOT IN ('pg_catalog', 'information_schema')
      UNION ALL SELECT 'trg ' || tgrelid::regclass::text || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal
      UNION ALL SELECT 'ext ' || extname || ' ' || extversion FROM pg_extension
      UNION ALL SELECT 'migrations ' || count(*)::text FROM drizzle.__drizzle_migrations
    ) s`);
  return rows[0]!.digest;
}

/** Back to the template's state: no session state, no rows, sequences at their start. */
async function reset(client: PGlite): Promise<void> {
  // A test may have left a transaction open; outside one this only warns.
  await client.exec('ROLLBACK');
  await client.exec('DISCARD ALL');
  const { rows: tables } = await client.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname = 'public'`,
  );
  if (tables.length)
    await client.exec(`TRUNCATE ${tables.map((t) => t.name).join(', ')} RESTART IDENTITY CASCADE`);
  const { rows: sequences } = await client.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences WHERE schemaname = 'public'`,
  );
  for (const { name } of sequences) await client.exec(`ALTER SEQUENCE ${name} RESTART`);
}

/** A handle on `client` that answers as a closed PGlite once `isReturned()` says so. */
function handle(client: PGlite, isReturned: () => boolean): PGlite {
  return new Proxy(client, {
    get(target, property) {
      if (property === 'closed') return isReturned() || target.closed;
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (isReturned()) return Promise.reject(new Error('PGlite is closed'));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** A database as the template left it, and how to give it back when the test is done. */
export async function takePooledPglite(): Promise<{
  client: PGlite;
  release: () => Promise<void>;
}> {
  const state = pool();
  const client = state.idle.pop() ?? (await start());
  state.schema ??= schemaDigest(client);
  const expected = await state.schema;
  let returned = false;
  return {
    client: handle(client, () => returned),
    async release() {
      if (returned) return;
      returned = true;
      try {
        await reset(client);
        if ((await schemaDigest(client)) === expected) {
          state.idle.push(client);
          return;
        }
      } catch {
        // Not reusable: closed below.
      }
      await client.close().catch(() => undefined);
    },
  };
}
