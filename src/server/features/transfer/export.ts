import 'server-only';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { Readable, pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import { asc, gt, or, and, eq } from 'drizzle-orm';
import { env } from '@/env';
import type { Db } from '@/server/platform/db/client';
import { cmsContents, cmsMedia, cmsVersions } from '@/server/platform/db/schema';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  CONTENT_PATH,
  type ContentRow,
  MANIFEST_PATH,
  MEDIA_PATH,
  type Manifest,
  type MediaRow,
  VERSIONS_PATH,
  type VersionRow,
  referencedKeys,
  storageKeyOfUrl,
} from './archive-format';
import { type TarEntryInput, tarStream } from '@/server/platform/archive/tar';
import { fileChunks } from '@/server/platform/archive/chunks';
import { filesInStorage } from '@/server/platform/archive/store-files';
import {
  manifestEntry,
  manifestHeader,
  storedFileEntries,
} from '@/server/platform/archive/write-entries';

/**
 * The export: every content row, version and media row, and the stored files they point at,
 * as one gzip'd tar (archive-format.ts). Rows are first written to temporary JSONL files, so
 * the manifest at the front carries exact counts while nothing is held in memory; the files
 * then stream from the storage straight into the archive.
 */

const PAGE = 200;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function transferTempDir(): Promise<string> {
  const dir = path.resolve(env().DATA_DIR, 'tmp', 'transfer');
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** Line-by-line writer of a temporary JSONL file. */
async function jsonlWriter(file: string) {
  const handle = await fs.open(file, 'wx', 0o600);
  let count = 0;
  let size = 0;
  return {
    async write(row: unknown) {
      const line = Buffer.from(JSON.stringify(row) + '\n', 'utf8');
      await handle.write(line);
      size += line.length;
      count++;
    },
    async close() {
      await handle.close();
      return { count, size };
    },
  };
}

/**
 * Every row a query gives, PAGE at a time in key order: `page(after)` reads the rows past the
 * key of the last row read (none at first).
 */
async function* inPages<Row, Key>(
  page: (after: Key | null) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
): AsyncGenerator<Row> {
  let after: Key | null = null;
  for (;;) {
    const rows = await page(after);
    yield* rows;
    const last = rows.at(-1);
    if (!last || rows.length < PAGE) return;
    after = keyOf(last);
  }
}

async function* contentRows(db: Db): AsyncGenerator<ContentRow> {
  const rows = inPages(
    (after: { endpoint: string; id: string } | null) =>
      db
        .select({
          endpoint: cmsContents.endpoint,
          id: cmsContents.id,
          status: cmsContents.status,
          data: cmsContents.data,
          draftData: cmsContents.draftData,
          draftKey: cmsContents.draftKey,
          createdAt: cmsContents.createdAt,
          updatedAt: cmsContents.updatedAt,
          publishedAt: cmsContents.publishedAt,
          revisedAt: cmsContents.revisedAt,
          scheduledAt: cmsContents.scheduledAt,
          updatedBy: cmsContents.updatedBy,
        })
        .from(cmsContents)
        .where(
          after
            ? or(
                gt(cmsContents.endpoint, after.endpoint),
                and(eq(cmsContents.endpoint, after.endpoint), gt(cmsContents.id, after.id)),
              )
            : undefined,
        )
        .orderBy(asc(cmsContents.endpoint), asc(cmsContents.id))
        .limit(PAGE),
    (row) => ({ endpoint: row.endpoint, id: row.id }),
  );
  for await (const row of rows)
    yield {
      ...row,
      status: row.status as ContentRow['status'],
      data: row.data ?? null,
      draftData: row.draftData ?? null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      publishedAt: iso(row.publishedAt),
      revisedAt: iso(row.revisedAt),
      scheduledAt: iso(row.scheduledAt),
    };
}

async function* versionRows(db: Db): AsyncGenerator<VersionRow> {
  const rows = inPages(
    (after: number | null) =>
      db
        .select()
        .from(cmsVersions)
        .where(gt(cmsVersions.id, after ?? 0))
        .orderBy(asc(cmsVersions.id))
        .limit(PAGE),
    (row) => row.id,
  );
  for await (const row of rows)
    yield {
      ...row,
      data: row.data ?? null,
      status: row.status as VersionRow['status'],
      createdAt: row.createdAt.toISOString(),
    };
}

async function* mediaRows(db: Db): AsyncGenerator<MediaRow> {
  const rows = inPages(
    (after: string | null) =>
      db
        .select()
        .from(cmsMedia)
        .where(after ? gt(cmsMedia.id, after) : undefined)
        .orderBy(asc(cmsMedia.id))
        .limit(PAGE),
    (row) => row.id,
  );
  for await (const row of rows)
    yield {
      ...row,
      kind: row.kind as MediaRow['kind'],
      width: row.width ?? null,
      height: row.height ?? null,
      createdAt: row.createdAt.toISOString(),
    };
}

export type PreparedExport = {
  manifest: Manifest;
  /** Keys the content points at that the storage does not have (left out). */
  missingFiles: string[];
  /** The archive, gzip'd. Read it to the end or destroy it: either removes the temporaries. */
  stream: Readable;
};

export async function prepareExport(
  db: Db,
  storage: MediaStorage,
  options: { now?: Date } = {},
): Promise<PreparedExport> {
  const dir = path.join(await transferTempDir(), `export-${randomUUID()}`);
  await fs.mkdir(dir, { mode: 0o700 });
  try {
    const keys = new Set<string>();
    const endpoints: Record<string, number> = {};
    const files = {
      content: path.join(dir, CONTENT_PATH),
      versions: path.join(dir, VERSIONS_PATH),
      media: path.join(dir, MEDIA_PATH),
    };

    const content = await jsonlWriter(files.content);
    for await (const row of contentRows(db)) {
      referencedKeys(row.data, keys);
      referencedKeys(row.draftData, keys);
      endpoints[row.endpoint] = (endpoints[row.endpoint] ?? 0) + 1;
      await content.write(row);
    }
    const contentFile = await content.close();

    const versions = await jsonlWriter(files.versions);
    for await (const row of versionRows(db)) {
      referencedKeys(row.data, keys);
      await versions.write(row);
    }
    const versionsFile = await versions.close();

    const media = await jsonlWriter(files.media);
    for await (const row of mediaRows(db)) {
      const key = storageKeyOfUrl(row.url);
      if (key) keys.add(key);
      await media.write(row);
    }
    const mediaFile = await media.close();

    const { present, missing: missingFiles } = await filesInStorage(storage, keys);

    const manifest: Manifest = {
      ...manifestHeader(ARCHIVE_FORMAT, ARCHIVE_VERSION, options.now),
      counts: {
        contents: contentFile.count,
        versions: versionsFile.count,
        media: mediaFile.count,
        files: present.length,
      },
      endpoints,
    };

    async function* entries(): AsyncGenerator<TarEntryInput> {
      yield manifestEntry(MANIFEST_PATH, manifest);
      yield { path: CONTENT_PATH, size: contentFile.size, body: fileChunks(files.content) };
      yield { path: VERSIONS_PATH, size: versionsFile.size, body: fileChunks(files.versions) };
      yield { path: MEDIA_PATH, size: mediaFile.size, body: fileChunks(files.media) };
      yield* storedFileEntries(
        storage,
        present,
        (key) => new Error(`stored file vanished during the export: ${key}`),
      );
    }

    async function* archive(): AsyncGenerator<Uint8Array> {
      try {
        yield* tarStream(entries());
      } finally {
        await fs.rm(dir, { recursive: true, force: true });
      }
    }

    const stream = createGzip();
    // pipeline destroys both sides on an error, and the source (so its cleanup runs) when the
    // reader gives up; the error itself reaches the reader through `stream`.
    pipeline(Readable.from(archive(), { objectMode: false }), stream, () => undefined);
    return { manifest, missingFiles, stream };
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    throw error;
  }
}
