import 'server-only';
import { z } from '@/lib/zod';

/**
 * The backup archive (`.tar.gz`), in this order:
 *   manifest.json         what it is: format, app version, migrations, tables, sequences, files
 *   tables/<name>.jsonl   one row a line, every application table of the public schema, in
 *                         foreign-key order (the order a restore inserts them)
 *   files/<key>           every stored media file, public and protected
 * A row is an object of column → the value as PostgreSQL's own text output (null for NULL),
 * so every type (timestamptz, jsonb, bytea, arrays, numeric) comes back exactly through its
 * own input function, identically on PGlite and on a PostgreSQL server.
 */

export const BACKUP_FORMAT = 'axis-backup';
export const BACKUP_VERSION = 1;

export const MANIFEST_PATH = 'manifest.json';
export const TABLES_PREFIX = 'tables/';

export const tablePath = (table: string) => `${TABLES_PREFIX}${table}.jsonl`;

/** One line's ceiling: a post's body and its draft may each be 200,000 characters of HTML. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Names as the migrations make them: lower case, so they are safe as file names too. */
const identifier = z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/);

export const columnSchema = z.object({
  name: identifier,
  /** format_type(): `text`, `timestamp with time zone`, `text[]`, `numeric(10,2)`, … */
  type: z.string().min(1).max(200),
});
export type BackupColumn = z.infer<typeof columnSchema>;

export const tableSchema = z.object({
  name: identifier,
  rows: z.number().int().min(0),
  columns: z.array(columnSchema).min(1).max(1600),
});
export type BackupTable = z.infer<typeof tableSchema>;

export const migrationSchema = z.object({
  hash: z.string().min(1).max(200),
  /** drizzle's `created_at`: the migration's journal timestamp (ms). */
  createdAt: z.number().int(),
  /** The migration's file name (`0008_billing`), when the journal knows it. */
  tag: z.string().max(200).nullable(),
});
export type BackupMigration = z.infer<typeof migrationSchema>;

export const sequenceSchema = z.object({
  name: identifier,
  /** A bigint as text. */
  lastValue: z.string().regex(/^-?\d{1,20}$/),
  isCalled: z.boolean(),
});
export type BackupSequence = z.infer<typeof sequenceSchema>;

export const manifestSchema = z.object({
  format: z.literal(BACKUP_FORMAT),
  version: z.literal(BACKUP_VERSION),
  createdAt: z.iso.datetime({ offset: true }),
  appVersion: z.string().max(100),
  database: z.object({
    kind: z.enum(['embedded', 'postgres']),
    serverVersion: z.string().max(200),
  }),
  /** drizzle's bookkeeping (`drizzle.__drizzle_migrations`), oldest first: not restored, compared. */
  migrations: z.array(migrationSchema).max(10_000),
  tables: z.array(tableSchema).max(1000),
  sequences: z.array(sequenceSchema).max(1000),
  files: z.object({ count: z.number().int().min(0), bytes: z.number().int().min(0) }),
});
export type BackupManifest = z.infer<typeof manifestSchema>;

/** A row line: column → text value or null. */
export const rowSchema = z.record(z.string(), z.string().nullable());
