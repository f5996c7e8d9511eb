import 'server-only';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import type { Database, Db } from '@/server/platform/db/client';
import { queryRows } from '@/server/platform/db/client';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { referencedKeys } from '@/server/features/transfer';
import { type TarEntryInput, tarStream } from '@/server/platform/archive/tar';
import {
  type CatalogTable,
  appliedMigrations,
  listTables,
  qualified,
  quoted,
  readSequences,
  serverVersion,
  setExactTextFormats,
} from './catalog';
import { BackupError } from './errors';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  type BackupManifest,
  MANIFEST_PATH,
  tablePath,
} from './format';
import { listStoredKeys } from './media-keys';
import { fileChunks } from '@/server/platform/archive/chunks';
import { filesInStorage } from '@/server/platform/archive/store-files';
import {
  manifestEntry,
  manifestHeader,
  storedFileEntries,
} from '@/server/platform/archive/write-entries';

/**
 * Writing a backup: the whole database as one consistent snapshot (a REPEATABLE READ READ
 * ONLY transaction, so the site may keep running), then every stored media file, into one
 * .tar.gz of mode 0600 (it holds password hashes and sessions). The rows go first to
 * temporary JSONL files beside the target, so the manifest at the front carries exact counts
 * and the snapshot ends before the (slow) media copy starts; nothing is held in memory whole.
 */

const FETCH = 500;

export type BackupResult = {
  file: string;
  manifest: BackupManifest;
  /** Size of the written archive. */
  bytes: number;
  /** Keys the database points at that the storage does not have (left out). */
  missingFiles: string[];
};

type DumpedTable = { table: CatalogTable; file: string; rows: number; size: number };

/** One table's rows as JSON lines (column → text form), through a cursor, FETCH rows at a time. */
async function dumpTable(
  tx: Db,
  table: CatalogTable,
  file: string,
  keys: Set<string>,
): Promise<DumpedTable> {
  const names = table.columns.map((c) => `'${c.name}'`).join(', ');
  const values = table.columns.map((c) => `${quoted(c.name)}::text`).join(', ');
  await tx.execute(
    sql.raw(
      `DECLARE backup_cursor NO SCROLL CURSOR FOR ` +
        `SELECT json_object(ARRAY[${names}]::text[], ARRAY[${values}]::text[])::text AS line ` +
        `FROM ${qualified(table.name)}`,
    ),
  );
  const handle = await fs.open(file, 'wx', 0o600);
  let rows = 0;
  let size = 0;
  try {
    for (;;) {
      const batch = await queryRows<{ line: string }>(
        tx,
        sql.raw(`FETCH FORWARD ${FETCH} FROM backup_cursor`),
      );
      if (batch.length === 0) break;
      const text = batch.map((r) => r.line + '\n').join('');
      // Media addresses anywhere in a row (content, versions, media library, profiles…).
      referencedKeys(text, keys);
      const bytes = Buffer.from(text, 'utf8');
      await handle.write(bytes);
      rows += batch.length;
      size += bytes.length;
    }
  } finally {
    await handle.close();
  }
  await tx.execute(sql.raw('CLOSE backup_cursor'));
  return { table, file, rows, size };
}

export async function createBackup(
  database: Database,
  storage: MediaStorage,
  options: { out: string; now?: Date },
): Promise<BackupResult> {
  const out = path.resolve(options.out);
  if (await fs.stat(out).catch(() => null))
    throw new BackupError(`${out} はすでにあります。別の名前を指定してください。`, {
      status: 409,
    });
  await fs.mkdir(path.dirname(out), { recursive: true, mode: 0o700 });
  // Beside the target: the operator chose a disk with room for the backup.
  const work = path.join(path.dirname(out), `.${path.basename(out)}.${randomUUID()}.tmp`);
  await fs.mkdir(work, { mode: 0o700 });
  const partial = `${out}.${randomUUID()}.part`;
  try {
    const keys = new Set<string>();
    const snapshot = await database.db.transaction(
      async (tx) => {
        await setExactTextFormats(tx);
        const tables = await listTables(tx);
        const dumped: DumpedTable[] = [];
        for (const table of tables)
          dumped.push(await dumpTable(tx, table, path.join(work, `${table.name}.jsonl`), keys));
        return {
          dumped,
          migrations: await appliedMigrations(tx),
          // Read after the rows: a sequence never goes back, so it is past every id copied.
          sequences: await readSequences(tx),
          version: await serverVersion(tx),
        };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );

    for (const key of await listStoredKeys(storage)) keys.add(key);
    const { present, missing: missingFiles } = await filesInStorage(storage, keys);

    const manifest: BackupManifest = {
      ...manifestHeader(BACKUP_FORMAT, BACKUP_VERSION, options.now),
      database: { kind: database.kind, serverVersion: snapshot.version },
      migrations: snapshot.migrations,
      tables: snapshot.dumped.map((d) => ({
        name: d.table.name,
        rows: d.rows,
        columns: d.table.columns,
      })),
      sequences: snapshot.sequences,
      files: { count: present.length, bytes: present.reduce((sum, f) => sum + f.size, 0) },
    };

    async function* entries(): AsyncGenerator<TarEntryInput> {
      yield manifestEntry(MANIFEST_PATH, manifest);
      for (const d of snapshot.dumped)
        yield { path: tablePath(d.table.name), size: d.size, body: fileChunks(d.file) };
      yield* storedFileEntries(
        storage,
        present,
        (key) =>
          new BackupError(
            `バックアップ中にファイルが削除されました: ${key}。もう一度実行してください。`,
            { status: 409 },
          ),
      );
    }

    await pipeline(
      Readable.from(tarStream(entries())),
      createGzip(),
      createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
    );
    await fs.chmod(partial, 0o600); // whatever the umask
    await fs.rename(partial, out);
    const { size } = await fs.stat(out);
    return { file: out, manifest, bytes: size, missingFiles };
  } catch (error) {
    await fs.rm(partial, { force: true });
    throw error;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}
