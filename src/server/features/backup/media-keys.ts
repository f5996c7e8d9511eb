import 'server-only';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { isArchivableKey } from '@/server/platform/archive/store-files';

/**
 * Which stored files a backup carries: every file of the three folders the app serves
 * (images/, demo/, protected/) that the storage lists, on local disk or S3, so a file nothing
 * points at any more is kept too (the caller adds the files the database points at).
 */
export async function listStoredKeys(storage: MediaStorage): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of storage.list()) if (isArchivableKey(key)) keys.push(key);
  return keys;
}
