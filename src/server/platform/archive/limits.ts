import 'server-only';
import { env } from '@/env';
import { FILES_PREFIX } from './store-files';
import type { TarEntry } from './tar';

/**
 * How much an archive (a transfer import or a backup restore) may unpack to. A tar header
 * names its entry's size, and the reader yields exactly that many bytes, so both caps are
 * checked from the headers before an entry's first byte is written anywhere.
 */
export type ArchiveLimits = {
  /** Every entry together, rows and files. */
  totalBytes: number;
  /** One stored file (an entry under `files/`). */
  fileBytes: number;
};

const MB = 1024 * 1024;

/**
 * ARCHIVE_MAX_TOTAL_MB (10 GB) and ARCHIVE_MAX_FILE_MB (2 GB, the largest video the site
 * itself stores): room for a whole site's media, and a stop before a crafted archive fills the
 * disk.
 */
export function defaultArchiveLimits(): ArchiveLimits {
  const { ARCHIVE_MAX_TOTAL_MB, ARCHIVE_MAX_FILE_MB } = env();
  return { totalBytes: ARCHIVE_MAX_TOTAL_MB * MB, fileBytes: ARCHIVE_MAX_FILE_MB * MB };
}

/** The refusal of an archive past a cap, in the words the admin reads (no change was made). */
export function sizeLimitMessage(limits: ArchiveLimits, entry: TarEntry, total: number): string {
  return total > limits.totalBytes
    ? `展開後の合計サイズが上限 (${limits.totalBytes} バイト) を超えています。`
    : `展開後のサイズが上限 (${limits.fileBytes} バイト) を超えています: ${entry.path.slice(0, 200)}`;
}

/**
 * The entries of a tar reader, each checked against the caps before it is handed on; past
 * one, `fail(message)` is thrown and the caller's cleanup removes what it kept.
 */
export async function* withinLimits(
  entries: AsyncGenerator<TarEntry>,
  limits: ArchiveLimits,
  fail: (message: string) => Error,
): AsyncGenerator<TarEntry> {
  let total = 0;
  for await (const entry of entries) {
    total += entry.size;
    const fileTooBig = entry.path.startsWith(FILES_PREFIX) && entry.size > limits.fileBytes;
    if (fileTooBig || total > limits.totalBytes) throw fail(sizeLimitMessage(limits, entry, total));
    yield entry;
  }
}
