import 'server-only';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { FileSystemStorage, type MediaStorage } from '@/server/storage/storage';
import { isArchivableKey } from '@/server/transfer/archive-format';

/**
 * Which stored files a backup carries: on local disk every file of the three folders the app
 * serves (images/, demo/, protected/), found by walking the uploads directory, so a file
 * nothing points at any more is kept too; on storage that cannot be listed, the files the
 * database points at (the caller adds those in both cases).
 */

async function walk(root: string, dir: string, into: string[]): Promise<void> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    // Keys never start with a dot: .tmp (uploads in progress) and the like are skipped here.
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) await walk(root, full, into);
    else if (entry.isFile()) {
      const key = path.relative(root, full).split(path.sep).join('/');
      if (isArchivableKey(key)) into.push(key);
    }
  }
}

/** Every media key the storage holds, or null when it cannot list its objects. */
export async function listStoredKeys(storage: MediaStorage): Promise<string[] | null> {
  if (!(storage instanceof FileSystemStorage)) return null;
  const keys: string[] = [];
  await walk(storage.root, storage.root, keys);
  return keys;
}
