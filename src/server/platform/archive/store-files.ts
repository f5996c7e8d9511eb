import 'server-only';
import fs from 'node:fs/promises';
import path from 'node:path';
import { mediaTypeForKey } from '@/server/platform/storage/media-types';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { isValidStorageKey } from '@/lib/media/storage-key';
import type { TarEntry } from './tar';

/** Where an archive keeps its media files: `files/<storage key>`. */
export const FILES_PREFIX = 'files/';

/** The keys an archive may carry: the three folders the app serves from. */
export function isArchivableKey(key: string): boolean {
  return (
    isValidStorageKey(key) &&
    (key.startsWith('images/') || key.startsWith('demo/') || key.startsWith('protected/'))
  );
}

/**
 * Which of `keys` the storage holds, in key order, with their sizes; the rest are missing (an
 * archive carries what is there and names what is not).
 */
export async function filesInStorage(
  storage: MediaStorage,
  keys: Iterable<string>,
): Promise<{ present: { key: string; size: number }[]; missing: string[] }> {
  const present: { key: string; size: number }[] = [];
  const missing: string[] = [];
  for (const key of [...keys].sort()) {
    const info = await storage.head(key);
    if (info) present.push({ key, size: info.size });
    else missing.push(key);
  }
  return { present, missing };
}

/**
 * Stores the `files/` entries that end an archive (a transfer import's or a backup's), each
 * through a temporary file, after every name passed the storage-key rules: an archive never
 * chooses where a file lands outside the uploads. Keys it added are pushed to `stored` as it
 * goes, so the caller can remove them again if anything later fails; a file already there (the
 * shipped demo media) is replaced and never removed. Returns the keys seen.
 */
export async function storeArchiveFiles(options: {
  next: () => Promise<TarEntry | undefined>;
  storage: MediaStorage;
  tempDir: string;
  /** How many the manifest announced. */
  expected: number;
  stored: string[];
  /** The archive's name in messages: アーカイブ or バックアップ. */
  noun: string;
  /** Appended to the messages of a count that does not match. */
  corrupt: string;
  fail: (message: string) => Error;
  onFile?: (done: number, total: number) => void;
}): Promise<Set<string>> {
  const { next, storage, expected, noun, fail } = options;
  const seen = new Set<string>();
  for (let entry = await next(); entry; entry = await next()) {
    if (!entry.path.startsWith(FILES_PREFIX))
      throw fail(`${noun}に想定外の項目があります: ${entry.path.slice(0, 200)}`);
    const key = entry.path.slice(FILES_PREFIX.length);
    if (!isArchivableKey(key))
      throw fail(`${noun}のファイル名が不正です: ${entry.path.slice(0, 200)}`);
    if (seen.has(key)) throw fail(`同じファイルが 2 回含まれています: ${key}`);
    seen.add(key);
    if (seen.size > expected)
      throw fail(`${noun}のファイルの数が manifest.json と合いません。${options.corrupt}`);
    const temp = path.join(options.tempDir, `${seen.size}.part`);
    const handle = await fs.open(temp, 'wx', 0o600);
    try {
      for await (const chunk of entry.body) await handle.write(chunk);
    } finally {
      await handle.close();
    }
    const existed = (await storage.head(key)) !== null;
    await storage.put(
      key,
      { filePath: temp },
      mediaTypeForKey(key)?.contentType ?? 'application/octet-stream',
    );
    await fs.rm(temp, { force: true });
    if (!existed) options.stored.push(key);
    options.onFile?.(seen.size, expected);
  }
  if (seen.size !== expected)
    throw fail(
      `${noun}のファイルが足りません (${seen.size} 件、manifest では ${expected} 件)。${options.corrupt}`,
    );
  return seen;
}
