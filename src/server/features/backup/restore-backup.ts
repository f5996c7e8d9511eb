import 'server-only';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { env } from '@/env';
import { type Database, type Db, queryRows } from '@/server/platform/db/client';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { type TarEntry, isZlibError } from '@/server/platform/archive/tar';
import { isAppError } from '@/lib/errors';
import { type ArchiveLimits, defaultArchiveLimits } from '@/server/platform/archive/limits';
import { openArchive } from '@/server/platform/archive/read-archive';
import { storeArchiveFiles } from '@/server/platform/archive/store-files';
import { entryLines, readEntryText } from '@/server/platform/archive/entries';
import {
  type CatalogTable,
  appliedMigrations,
  listTables,
  qualified,
  quoted,
  setExactTextFormats,
} from './catalog';
import { assertEmptyForRestore, type InstanceInventory, instanceInventory } from './emptiness';
import { BackupError } from './errors';
import {
  type BackupManifest,
  type BackupMigration,
  MANIFEST_PATH,
  MAX_LINE_BYTES,
  manifestSchema,
  rowSchema,
  tablePath,
} from './format';

/**
 * Restoring a backup into an empty instance, in one pass over the archive and one
 * transaction: the manifest is checked first (format, the same migrations as this app, the
 * same tables and columns), then every table is written in the archive's foreign-key order
 * and the media files are stored; once the whole archive has been read and its gzip checksum
 * verified, the sequences are set where they stood and the transaction commits. On any
 * failure nothing is kept: the transaction rolls back and the files stored so far are removed.
 */

const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
const BATCH_ROWS = 1000;
const BATCH_BYTES = 8 * 1024 * 1024;

export type RestoreResult = {
  manifest: BackupManifest;
  rows: number;
  files: number;
  /** What the instance holds now. */
  inventory: InstanceInventory;
};

const CORRUPT = 'バックアップファイルが壊れているか、途中で切れています。何も変更していません。';

/**
 * The database's own words for a failed statement, without the statement's parameters
 * (drizzle puts them in its message, and here they are users' rows, password hashes included).
 */
function databaseMessage(error: unknown): string {
  let deepest: unknown = error;
  for (let e: unknown = error; e instanceof Error; e = e.cause) deepest = e;
  const message = deepest instanceof Error ? deepest.message : String(deepest);
  return message.startsWith('Failed query:') ? '(詳細なし)' : message.slice(0, 300);
}

/**
 * Runs one step of the restore: a refusal already worded (a BackupError, a broken tar) or a
 * broken gzip stream is thrown on as it is, anything else is said in `reword`'s words.
 */
async function worded<T>(
  step: () => Promise<T>,
  reword: (error: unknown) => BackupError,
): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (isAppError(error) || isZlibError(error)) throw error;
    throw reword(error);
  }
}

function describeMigration(list: BackupMigration[]): string {
  const last = list.at(-1);
  return `${list.length} 件${last?.tag ? `、最後は ${last.tag}` : ''}`;
}

/** Same migrations, or a refusal that says which side to change. */
export function migrationMismatch(
  backup: BackupMigration[],
  here: BackupMigration[],
): string | null {
  const same = (a: BackupMigration[], b: BackupMigration[]) =>
    a.every((m, i) => m.hash === b[i]?.hash);
  if (backup.length === here.length && same(backup, here)) return null;
  const head =
    `このバックアップのマイグレーション (${describeMigration(backup)}) が、このアプリ (${describeMigration(here)}) と一致しません。` +
    '復元はマイグレーションがまったく同じ版どうしでだけ行えます。';
  if (backup.length > here.length && same(here, backup))
    return (
      head +
      'バックアップの方が新しいため、先にアプリを新しい版に更新してから復元してください。何も変更していません。'
    );
  if (backup.length < here.length && same(backup, here))
    return (
      head +
      'バックアップの方が古いため、バックアップを作ったときの版のアプリで空の環境に復元し、そのあとでアプリを更新してください (更新でマイグレーションが適用されます)。何も変更していません。'
    );
  return head + 'マイグレーションの履歴そのものが異なります。何も変更していません。';
}

/** The target's tables must be the backup's, column for column (the same migrations make them so). */
function schemaMismatch(manifest: BackupManifest, here: CatalogTable[]): string | null {
  const hereByName = new Map(here.map((t) => [t.name, t]));
  for (const table of manifest.tables) {
    const mine = hereByName.get(table.name);
    if (!mine) return `このデータベースにないテーブルがバックアップにあります: ${table.name}`;
    const a = JSON.stringify(mine.columns);
    const b = JSON.stringify(table.columns);
    if (a !== b) return `テーブル ${table.name} の列がこのデータベースと一致しません。`;
  }
  const inBackup = new Set(manifest.tables.map((t) => t.name));
  const extra = here.filter((t) => !inBackup.has(t.name)).map((t) => t.name);
  if (extra.length)
    return `バックアップにないテーブルがこのデータベースにあります: ${extra.join(', ')}`;
  return null;
}

function expectEntry(entry: TarEntry | undefined, name: string): TarEntry {
  if (!entry || entry.path !== name)
    throw new BackupError(
      `バックアップの形式が違います: ${name} があるべき場所に ${entry ? entry.path.slice(0, 200) : '何もありません'}。` +
        '"npm run admin -- backup" で作ったファイルを指定してください。',
    );
  return entry;
}

/** Rows of one table: checked line by line, staged as jsonb, then inserted in one statement. */
async function restoreTable(tx: Db, table: CatalogTable, entry: TarEntry): Promise<number> {
  const names = new Set(table.columns.map((c) => c.name));
  let staged = 0;
  let batch: string[] = [];
  let batchBytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await tx.execute(
      sql`INSERT INTO backup_restore_rows (r) SELECT value FROM jsonb_array_elements(${`[${batch.join(',')}]`}::jsonb)`,
    );
    batch = [];
    batchBytes = 0;
  };
  for await (const { text, line } of entryLines(entry, {
    maxLineBytes: MAX_LINE_BYTES,
    fail: (message) => new BackupError(message),
    utf8Suffix: CORRUPT,
  })) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new BackupError(`${entry.path} の ${line} 行目を JSON として読めません。${CORRUPT}`);
    }
    const row = rowSchema.safeParse(value);
    const keys = row.success ? Object.keys(row.data) : [];
    if (!row.success || keys.length !== names.size || !keys.every((k) => names.has(k)))
      throw new BackupError(
        `${entry.path} の ${line} 行目の列がテーブルと一致しません。${CORRUPT}`,
      );
    batch.push(text);
    batchBytes += text.length;
    staged++;
    if (batch.length >= BATCH_ROWS || batchBytes >= BATCH_BYTES) await flush();
  }
  await flush();
  // Each column through its type's own input function; one statement, so a row may point at
  // a row of the same table that comes after it (the foreign key is checked at its end).
  const columns = table.columns.map((c) => quoted(c.name)).join(', ');
  const values = table.columns.map((c) => `(r->>'${c.name}')::${c.type}`).join(', ');
  await tx.execute(
    sql.raw(
      `INSERT INTO ${qualified(table.name)} (${columns}) OVERRIDING SYSTEM VALUE ` +
        `SELECT ${values} FROM backup_restore_rows`,
    ),
  );
  await tx.execute(sql`TRUNCATE backup_restore_rows`);
  return staged;
}

export async function restoreBackup(
  database: Database,
  storage: MediaStorage,
  source: Readable,
  options: { limits?: ArchiveLimits } = {},
): Promise<RestoreResult> {
  const db = database.db;
  try {
    await assertEmptyForRestore(db);
  } catch (error) {
    // Refused before it was read: a late error of the source no longer matters.
    source.on('error', () => undefined);
    source.destroy();
    throw error;
  }
  const archive = openArchive(source, {
    limits: options.limits ?? defaultArchiveLimits(),
    fail: (message) => new BackupError(message),
    unreadable: CORRUPT,
  });
  const { next } = archive;
  const tempDir = path.resolve(env().DATA_DIR, 'tmp', 'backup', `restore-${randomUUID()}`);
  await fs.mkdir(tempDir, { recursive: true, mode: 0o700 });
  const stored: string[] = [];
  try {
    const manifest = await worded(
      async () => {
        const text = await readEntryText(
          expectEntry(await next(), MANIFEST_PATH),
          MAX_MANIFEST_BYTES,
          (message) => new BackupError(message),
        );
        return manifestSchema.parse(JSON.parse(text));
      },
      () =>
        new BackupError(
          'manifest.json を読めません。"npm run admin -- backup" で作った、対応する版のバックアップを指定してください。',
        ),
    );
    const migrationProblem = migrationMismatch(manifest.migrations, await appliedMigrations(db));
    if (migrationProblem) throw new BackupError(migrationProblem);
    const here = await listTables(db);
    const schemaProblem = schemaMismatch(manifest, here);
    if (schemaProblem)
      throw new BackupError(
        `${schemaProblem} 同じ版のアプリで作ったバックアップを指定してください。`,
      );
    const hereByName = new Map(here.map((t) => [t.name, t]));
    const hereSequences = new Set(
      (
        await queryRows<{ name: string }>(
          db,
          sql`SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = 'public' AND c.relkind = 'S'`,
        )
      ).map((r) => r.name),
    );
    const unknownSequence = manifest.sequences.find((s) => !hereSequences.has(s.name));
    if (unknownSequence)
      throw new BackupError(
        `このデータベースにないシーケンスがバックアップにあります: ${unknownSequence.name}`,
      );

    let rows = 0;
    let files = 0;
    await db.transaction(async (tx) => {
      await setExactTextFormats(tx);
      await assertEmptyForRestore(tx); // again, inside: nobody signed up meanwhile
      await tx.execute(sql`CREATE TEMP TABLE backup_restore_rows (r jsonb) ON COMMIT DROP`);
      // Rows that a fresh instance makes by itself (its own audit events, counters…) give way.
      for (const table of [...here].reverse())
        await tx.execute(sql.raw(`DELETE FROM ${qualified(table.name)}`));

      for (const table of manifest.tables) {
        const entry = expectEntry(await next(), tablePath(table.name));
        const count = await worded(
          () => restoreTable(tx, hereByName.get(table.name)!, entry),
          (error) =>
            new BackupError(
              `テーブル ${table.name} を書き戻せません (${databaseMessage(error)})。${CORRUPT}`,
            ),
        );
        if (count !== table.rows)
          throw new BackupError(
            `テーブル ${table.name} の行数が manifest.json と合いません (${count} 行、manifest では ${table.rows} 行)。${CORRUPT}`,
          );
        rows += count;
      }

      const seen = await storeArchiveFiles({
        next,
        storage,
        tempDir,
        expected: manifest.files.count,
        stored,
        noun: 'バックアップ',
        corrupt: CORRUPT,
        fail: (message) => new BackupError(message),
      });
      files = seen.size;
      // To the end of the gzip stream: its checksum is verified there, before anything commits.
      await archive.finish();
      // Last, once everything else has been read: setval is not undone by a rollback.
      for (const s of manifest.sequences)
        await tx.execute(
          sql`SELECT setval(${`public.${s.name}`}::regclass, ${s.lastValue}::bigint, ${s.isCalled})`,
        );
    });
    return { manifest, rows, files, inventory: await instanceInventory(db) };
  } catch (error) {
    for (const key of stored) await storage.delete(key).catch(() => undefined);
    archive.close();
    const refusal = archive.refusal(error);
    if (refusal instanceof BackupError) throw refusal;
    // Anything else from the database: its own words, never the statement's parameters.
    throw new BackupError(
      `復元できませんでした (${databaseMessage(error)})。何も変更していません。`,
    );
  } finally {
    await fs.rm(tempDir, { recursive: true, force: true });
  }
}
