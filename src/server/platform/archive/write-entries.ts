import 'server-only';
import packageJson from '../../../../package.json';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { webChunks } from './chunks';
import { FILES_PREFIX } from './store-files';
import type { TarEntryInput } from './tar';

/** What every archive's manifest starts with: its format and version, when, and by which app. */
export function manifestHeader<F extends string, V extends number>(
  format: F,
  version: V,
  now: Date = new Date(),
): { format: F; version: V; createdAt: string; appVersion: string } {
  return { format, version, createdAt: now.toISOString(), appVersion: packageJson.version };
}

/** The manifest as an archive's first entry: indented JSON, so an operator can read it. */
export function manifestEntry(path: string, manifest: unknown): TarEntryInput {
  const body = Buffer.from(JSON.stringify(manifest, null, 2) + '\n', 'utf8');
  return { path, size: body.length, body };
}

/**
 * The `files/<storage key>` entries that end an archive, each read from the storage only as
 * the archive reaches it; a file deleted since it was listed stops the archive with
 * `vanished(key)`.
 */
export async function* storedFileEntries(
  storage: MediaStorage,
  present: readonly { key: string }[],
  vanished: (key: string) => Error,
): AsyncGenerator<TarEntryInput> {
  for (const { key } of present) {
    const object = await storage.get(key);
    if (!object) throw vanished(key);
    yield {
      path: FILES_PREFIX + key,
      size: object.size,
      mtime: object.lastModified,
      body: webChunks(object.body),
    };
  }
}
