import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '@/server/platform/db/client';
import { MIGRATIONS_FOLDER } from '@/server/platform/db/migrate';
import type { BackupColumn, BackupMigration, BackupSequence } from './format';

/**
 * What the database holds, read from its own catalog rather than from a list in the code, so
 * a table a later migration adds is backed up without anyone remembering to add it here.
 */

export type CatalogTable = { name: string; columns: BackupColumn[] };

const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/** `"public"."name"`; names come from the catalog and are checked once more all the same. */
export function qualified(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`unexpected name in the public schema: ${name}`);
  return `"public"."${name}"`;
}

export function quoted(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`unexpected column name: ${name}`);
  return `"${name}"`;
}

/**
 * Every ordinary table of the public schema with its stored columns (generated ones are left
 * out: the database computes them again), parents before children.
 */
export async function listTables(db: Db): Promise<CatalogTable[]> {
  const columns = await queryRows<{ table: string; name: string; type: string }>(
    db,
    sql`SELECT c.relname AS "table", a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
        FROM pg_class c
        JOIN pg_namespace n ON n.oid = c.relnamespace
        JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
        ORDER BY c.relname, a.attnum`,
  );
  const byTable = new Map<string, BackupColumn[]>();
  for (const c of columns) {
    const list = byTable.get(c.table) ?? [];
    list.push({ name: c.name, type: c.type });
    byTable.set(c.table, list);
  }
  const links = await queryRows<{ child: string; parent: string }>(
    db,
    sql`SELECT child.relname AS child, parent.relname AS parent
        FROM pg_constraint k
        JOIN pg_class child ON child.oid = k.conrelid
        JOIN pg_namespace cn ON cn.oid = child.relnamespace
        JOIN pg_class parent ON parent.oid = k.confrelid
        JOIN pg_namespace pn ON pn.oid = parent.relnamespace
        WHERE k.contype = 'f' AND cn.nspname = 'public' AND pn.nspname = 'public'`,
  );
  return foreignKeyOrder([...byTable.keys()], links).map((name) => ({
    name,
    columns: byTable.get(name)!,
  }));
}

/**
 * Tables ordered so that every table comes after the tables it references (ties by name).
 * A table that references itself is fine: a restore inserts each table in one statement, and
 * PostgreSQL checks a foreign key at the end of the statement. A cycle between tables is not
 * (it would need deferrable constraints), and fails loudly here rather than in a restore.
 */
export function foreignKeyOrder(
  tables: string[],
  links: { child: string; parent: string }[],
): string[] {
  const parents = new Map(tables.map((t) => [t, new Set<string>()]));
  for (const { child, parent } of links) {
    if (child !== parent && parents.has(parent)) parents.get(child)?.add(parent);
  }
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < tables.length) {
    const ready = [...parents.keys()]
      .filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)))
      .sort();
    if (ready.length === 0) {
      const rest = tables.filter((t) => !placed.has(t)).sort();
      throw new Error(`foreign keys form a cycle between tables: ${rest.join(', ')}`);
    }
    for (const t of ready) {
      order.push(t);
      placed.add(t);
    }
  }
  return order;
}

/** The sequences of the public schema (serial and identity columns) and where they stand. */
export async function readSequences(db: Db): Promise<BackupSequence[]> {
  const names = await queryRows<{ name: string }>(
    db,
    sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind = 'S' ORDER BY c.relname`,
  );
  const out: BackupSequence[] = [];
  for (const { name } of names) {
    const [row] = await queryRows<{ lastValue: string; isCalled: boolean }>(
      db,
      sql.raw(
        `SELECT last_value::text AS "lastValue", is_called AS "isCalled" FROM ${qualified(name)}`,
      ),
    );
    out.push({ name, lastValue: row!.lastValue, isCalled: row!.isCalled });
  }
  return out;
}

function journalTags(): Map<number, string> {
  try {
    const journal = JSON.parse(
      fs.readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
    ) as { entries?: { when: number; tag: string }[] };
    return new Map((journal.entries ?? []).map((e) => [e.when, e.tag]));
  } catch {
    return new Map();
  }
}

/** The migrations applied to this database, oldest first (drizzle's own bookkeeping). */
export async function appliedMigrations(db: Db): Promise<BackupMigration[]> {
  const rows = await queryRows<{ hash: string; createdAt: string | number | null }>(
    db,
    sql`SELECT hash, created_at AS "createdAt" FROM drizzle.__drizzle_migrations ORDER BY id`,
  );
  const tags = journalTags();
  return rows.map((r) => {
    const createdAt = Number(r.createdAt ?? 0);
    return { hash: r.hash, createdAt, tag: tags.get(createdAt) ?? null };
  });
}

export async function serverVersion(db: Db): Promise<string> {
  const [row] = await queryRows<{ v: string }>(
    db,
    sql`SELECT current_setting('server_version') AS v`,
  );
  return row?.v ?? 'unknown';
}

/**
 * Session settings under which every value's text form reads back exactly: ISO dates with
 * their offset, all float digits, hex bytea. Local to the transaction.
 */
export async function setExactTextFormats(db: Db): Promise<void> {
  await db.execute(sql`SET LOCAL DateStyle = 'ISO, YMD'`);
  await db.execute(sql`SET LOCAL IntervalStyle = 'postgres'`);
  await db.execute(sql`SET LOCAL TimeZone = 'UTC'`);
  await db.execute(sql`SET LOCAL extra_float_digits = 3`);
  await db.execute(sql`SET LOCAL bytea_output = 'hex'`);
}
