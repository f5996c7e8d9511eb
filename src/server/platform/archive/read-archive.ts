import 'server-only';
import { type Readable, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { type ArchiveLimits, withinLimits } from './limits';
import { TarFormatError, type TarEntry, isZlibError, readTar } from './tar';

/**
 * Reading a gzip'd tar archive (a transfer import's, a backup's): one pipeline, so both meet a
 * broken file the same way. A truncated or corrupt file is always a refusal in the caller's
 * words, never a hang or an error nobody listens for: the gzip stream is read to its end,
 * where its length and checksum are verified, before the caller keeps anything.
 */

export type ArchiveReader = {
  /** The next entry, checked against the caps; undefined after the last. */
  next: () => Promise<TarEntry | undefined>;
  /** Reads on to the end of the gzip stream: a file cut or damaged after the tar's end fails here. */
  finish: () => Promise<void>;
  /** Stops reading and lets go of the source (after a refusal or a fault). */
  close: () => void;
  /** `error` as the caller's refusal when the archive is unreadable; anything else as it is. */
  refusal: (error: unknown) => unknown;
};

export type ArchiveReading = {
  /** The decompressed size caps (defaultArchiveLimits()). */
  limits: ArchiveLimits;
  /** The caller's refusal (TransferError, BackupError) for a Japanese message. */
  fail: (message: string) => Error;
  /** Said after what is wrong with an unreadable archive: what to do, that nothing changed. */
  unreadable: string;
};

/** The archive itself could not be read: its gzip stream or its tar is broken. */
export const unreadableArchive = (error: unknown): boolean =>
  error instanceof TarFormatError || isZlibError(error);

/** What is wrong with the gzip stream, in the words of the tar reader's messages. */
function gzipProblem(error: unknown): string {
  // zlib says Z_BUF_ERROR ("unexpected end of file") when the input stops before the stream ends.
  return (error as { code?: unknown }).code === 'Z_BUF_ERROR'
    ? 'gzip のデータが途中で終わっています。'
    : 'gzip として展開できません。';
}

export function openArchive(source: Readable, reading: ArchiveReading): ArchiveReader {
  const unzipped = createGunzip();
  pipeline(source, unzipped, () => undefined);
  // A truncated file can make the decompressor fail after the reader below stopped asking (a
  // refusal, a database fault): without a listener of its own that error would stop the server.
  unzipped.on('error', () => undefined);
  // One iterator for the tar reader and, after its end, for the rest of the gzip stream.
  const chunks = unzipped[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  const entries = withinLimits(
    readTar({ [Symbol.asyncIterator]: () => chunks }),
    reading.limits,
    (message) => reading.fail(`${message}何も変更していません。`),
  );
  return {
    next: async () => (await entries.next()).value as TarEntry | undefined,
    finish: async () => {
      while (!(await chunks.next()).done) {
        /* drained: zlib verifies the length and checksum at the end */
      }
    },
    close: () => {
      source.on('error', () => undefined);
      source.destroy();
      unzipped.destroy();
    },
    refusal: (error) => {
      if (!unreadableArchive(error)) return error;
      const problem = error instanceof TarFormatError ? error.message : gzipProblem(error);
      return reading.fail(`${problem}${reading.unreadable}`);
    },
  };
}
