import 'server-only';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { z } from '@/lib/zod';
import type { Db } from '@/server/platform/db/client';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import {
  CONTENT_PATH,
  type ContentRow,
  MANIFEST_PATH,
  MAX_LINE_BYTES,
  MEDIA_PATH,
  type Manifest,
  type MediaRow,
  VERSIONS_PATH,
  type VersionRow,
  contentRowSchema,
  manifestSchema,
  mediaRowSchema,
  storageKeyOfUrl,
  versionRowSchema,
} from './archive-format';
import { TransferError } from './errors';
import { transferTempDir } from './export';
import { assertEmpty } from './inventory';
import type { TarEntry } from '@/server/platform/archive/tar';
import { type ArchiveLimits, defaultArchiveLimits } from '@/server/platform/archive/limits';
import { openArchive, unreadableArchive } from '@/server/platform/archive/read-archive';
import { storeArchiveFiles } from '@/server/platform/archive/store-files';
import { entryLines, readEntryText } from '@/server/platform/archive/entries';
import {
  type ImportCounts,
  checkedContentRow,
  checkedVersionRow,
  writeImport,
} from './write-import';

/**
 * Importing a transfer archive into an empty instance. Everything is checked before anything
 * is kept: the manifest and every row (zod, then the content model's rules, rich text
 * sanitised again) before the first file is stored; every file name by the storage-key rules
 * (an archive never chooses where a file lands outside the uploads); the rows written in one
 * transaction after the files. On any failure the files stored so far are removed again.
 */

export type ImportSummary = ImportCounts & { warnings: string[] };

const MAX_MANIFEST_BYTES = 1024 * 1024;
/** Said after what is wrong with an archive that cannot be read. */
const UNREADABLE =
  'このサイトの書き出し機能で作ったアーカイブ (.tar.gz) を選んでください。何も変更していません。';

/** The JSON lines of an entry, each parsed by `schema`; errors name the file and the line. */
async function readJsonl<S extends z.ZodType>(
  entry: TarEntry,
  schema: S,
  each: (row: z.output<S>, line: number) => void,
): Promise<void> {
  const fail = (message: string) => new TransferError(message);
  for await (const { text, line } of entryLines(entry, { maxLineBytes: MAX_LINE_BYTES, fail })) {
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new TransferError(`${entry.path} の ${line} 行目を JSON として読めません。`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? ` (${issue.path.join('.')})` : '';
      throw new TransferError(`${entry.path} の ${line} 行目が不正です${where}: ${issue?.message}`);
    }
    try {
      each(parsed.data, line);
    } catch (error) {
      if (error instanceof TransferError)
        throw new TransferError(`${entry.path} の ${line} 行目: ${error.message}`);
      throw error;
    }
  }
}

function expectEntry(entry: TarEntry | undefined, name: string): TarEntry {
  if (!entry || entry.path !== name)
    throw new TransferError(
      `アーカイブの形式が違います: ${name} があるべき場所に ${entry ? entry.path : '何もありません'}。このサイトの書き出し機能で作ったファイルを選んでください。`,
    );
  return entry;
}

export type ImportArchiveOptions = {
  /** Called after each stored file (progress). */
  onFile?: (done: number, total: number) => void;
  /** The decompressed size caps (defaultArchiveLimits()). */
  limits?: ArchiveLimits;
};

export async function importArchive(
  db: Db,
  storage: MediaStorage,
  source: Readable,
  options: ImportArchiveOptions = {},
): Promise<ImportSummary> {
  await assertEmpty(db);
  const archive = openArchive(source, {
    limits: options.limits ?? defaultArchiveLimits(),
    fail: (message) => new TransferError(message),
    unreadable: UNREADABLE,
  });
  const { next } = archive;
  const stored: string[] = [];
  const tempDir = path.join(await transferTempDir(), `import-${randomUUID()}`);
  await fs.mkdir(tempDir, { mode: 0o700 });
  try {
    const manifestEntry = expectEntry(await next(), MANIFEST_PATH);
    let manifest: Manifest;
    try {
      manifest = manifestSchema.parse(
        JSON.parse(
          await readEntryText(manifestEntry, MAX_MANIFEST_BYTES, (m) => new TransferError(m)),
        ),
      );
    } catch (error) {
      // A file cut short or damaged is said as such (below), not as a manifest of another kind.
      if (error instanceof TransferError || unreadableArchive(error)) throw error;
      throw new TransferError(
        'manifest.json を読めません。このサイトの書き出し機能で作った、対応する版のアーカイブを選んでください。',
      );
    }

    const contents: ContentRow[] = [];
    const versions: VersionRow[] = [];
    const media: MediaRow[] = [];
    await readJsonl(expectEntry(await next(), CONTENT_PATH), contentRowSchema, (row) =>
      contents.push(checkedContentRow(row)),
    );
    await readJsonl(expectEntry(await next(), VERSIONS_PATH), versionRowSchema, (row) =>
      versions.push(checkedVersionRow(row)),
    );
    await readJsonl(expectEntry(await next(), MEDIA_PATH), mediaRowSchema, (row) => {
      if (!storageKeyOfUrl(row.url))
        throw new TransferError(`メディアの URL が不正です: ${row.url.slice(0, 200)}`);
      media.push(row);
    });
    const counted = { contents: contents.length, versions: versions.length, media: media.length };
    for (const [what, n] of Object.entries(counted)) {
      const expected = manifest.counts[what as keyof typeof counted];
      if (n !== expected)
        throw new TransferError(
          `アーカイブの内容が manifest.json と合いません (${what}: ${n} 件、manifest では ${expected} 件)。ファイルが壊れている可能性があります。`,
        );
    }

    // Rows are sound: now the files, each to a temporary file and then into the storage.
    const seen = await storeArchiveFiles({
      next,
      storage,
      tempDir,
      expected: manifest.counts.files,
      stored,
      noun: 'アーカイブ',
      corrupt: 'ファイルが途中で切れている可能性があります。',
      fail: (message) => new TransferError(message),
      onFile: options.onFile,
    });
    // To the end of the gzip stream: a file cut short after the tar's end is refused here.
    await archive.finish();

    const warnings: string[] = [];
    for (const row of media) {
      const key = storageKeyOfUrl(row.url)!;
      if (!seen.has(key) && !(await storage.head(key)))
        warnings.push(`メディア ${row.url} のファイルがアーカイブにありません。`);
    }

    const perEndpoint = await writeImport(db, { contents, versions, media });
    return {
      contents: perEndpoint,
      versions: versions.length,
      media: media.length,
      files: seen.size,
      warnings,
    };
  } catch (error) {
    for (const key of stored) await storage.delete(key).catch(() => undefined);
    archive.close();
    throw archive.refusal(error);
  } finally {
    await fs.rm(tempDir, { recursive: true, force: true });
  }
}
