import 'server-only';
import { AppError } from '@/lib/errors';
import { Header, Pax } from 'tar';

/**
 * A streaming tar writer and reader, just big enough for the transfer archive: regular files
 * only, PAX headers for long names. The `tar` package encodes and decodes the headers; the
 * byte flow is ours, so an entry's body is pulled from (or pushed to) its source one chunk at
 * a time and a 500 MB video never sits in memory.
 */

const BLOCK = 512;
const ZERO_BLOCK = new Uint8Array(BLOCK);

export type TarEntryInput = {
  path: string;
  size: number;
  mtime?: Date;
  /** Exactly `size` bytes. */
  body: AsyncIterable<Uint8Array> | Uint8Array;
};

function headerFor(path: string, size: number, mtime: Date): Buffer {
  const header = new Header({ path, size, mode: 0o600, mtime, type: 'File', uid: 0, gid: 0 });
  const block = Buffer.alloc(BLOCK);
  const needPax = header.encode(block, 0);
  if (!needPax) return block;
  // A name past ustar's 255 bytes travels in a PAX extended header before the entry's own.
  const pax = new Pax({ path, size, mtime }).encode();
  return Buffer.concat([pax, block]);
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

/** The bytes of a tar archive of `entries`, in order (gzip them on the way out). */
export async function* tarStream(
  entries: AsyncIterable<TarEntryInput> | Iterable<TarEntryInput>,
): AsyncGenerator<Uint8Array> {
  for await (const entry of entries) {
    yield headerFor(entry.path, entry.size, entry.mtime ?? new Date());
    let written = 0;
    const chunks = entry.body instanceof Uint8Array ? [entry.body] : entry.body;
    for await (const chunk of chunks) {
      written += chunk.length;
      if (written > entry.size) throw new Error(`${entry.path}: more bytes than declared`);
      yield chunk;
    }
    if (written !== entry.size) throw new Error(`${entry.path}: fewer bytes than declared`);
    const pad = padding(entry.size);
    if (pad) yield ZERO_BLOCK.subarray(0, pad);
  }
  yield ZERO_BLOCK;
  yield ZERO_BLOCK;
}

/** A gzip stream that cannot be inflated (node's zlib errors carry a `Z_…` code). */
export const isZlibError = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && String(error.code).startsWith('Z_');

/** An archive that cannot be read as tar (the message is Japanese and names what is wrong). */
export class TarFormatError extends AppError {
  constructor(message: string) {
    super(message, { status: 400, code: 'archive-unreadable' });
    this.name = 'TarFormatError';
  }
}

/** Reads exact byte counts from a chunked source. */
class ByteReader {
  private buffered: Uint8Array[] = [];
  private length = 0;
  private done = false;
  constructor(private readonly source: AsyncIterator<Uint8Array>) {}

  private async fill(min: number): Promise<boolean> {
    while (this.length < min && !this.done) {
      const next = await this.source.next();
      if (next.done) this.done = true;
      else if (next.value.length) {
        this.buffered.push(next.value);
        this.length += next.value.length;
      }
    }
    return this.length >= min;
  }

  /** Exactly n bytes, or null at the end of the source (an error if it ends midway). */
  async read(n: number): Promise<Uint8Array | null> {
    if (!(await this.fill(n))) {
      if (this.length === 0) return null;
      throw new TarFormatError('アーカイブが途中で終わっています。');
    }
    const all = Buffer.concat(this.buffered, this.length);
    this.buffered = all.length > n ? [all.subarray(n)] : [];
    this.length = all.length - n;
    return all.subarray(0, n);
  }

  /** Up to `max` bytes at once (at least one), for streaming a body. */
  async readSome(max: number): Promise<Uint8Array> {
    if (!(await this.fill(1))) throw new TarFormatError('アーカイブが途中で終わっています。');
    const first = this.buffered[0]!;
    if (first.length <= max) {
      this.buffered.shift();
      this.length -= first.length;
      return first;
    }
    this.buffered[0] = first.subarray(max);
    this.length -= max;
    return first.subarray(0, max);
  }

  async skip(n: number): Promise<void> {
    let left = n;
    while (left > 0) left -= (await this.readSome(left)).length;
  }
}

export type TarEntry = {
  path: string;
  size: number;
  /** Read it to its end (or call skip) before asking for the next entry. */
  body: AsyncIterable<Uint8Array>;
  skip: () => Promise<void>;
};

const MAX_PAX_BYTES = 64 * 1024;

/**
 * The regular files of a tar stream, one at a time. Anything else (links, devices,
 * directories) is refused rather than skipped: our archives never hold them, and a link is
 * how an archive reaches outside where it is unpacked.
 */
export async function* readTar(source: AsyncIterable<Uint8Array>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source[Symbol.asyncIterator]());
  let pax: Pax | null = null;
  for (;;) {
    const block = await reader.read(BLOCK);
    if (!block) throw new TarFormatError('アーカイブの終わりの印がありません。');
    if (block.every((b) => b === 0)) return; // end of archive
    const header = new Header(Buffer.from(block), 0, pax ?? undefined);
    if (!header.cksumValid) throw new TarFormatError('アーカイブのヘッダーが壊れています。');
    const size = header.size ?? 0;
    const type = header.type;
    if (type === 'ExtendedHeader' || type === 'GlobalExtendedHeader') {
      if (size > MAX_PAX_BYTES) throw new TarFormatError('拡張ヘッダーが大きすぎます。');
      const body = (await reader.read(size)) ?? new Uint8Array();
      await reader.skip(padding(size));
      if (type === 'ExtendedHeader') pax = Pax.parse(Buffer.from(body).toString('utf8'));
      continue;
    }
    // A PAX path wins over the ustar name and prefix (which hold a cut copy of it).
    const path = pax?.path ?? header.path ?? '';
    pax = null;
    if (type !== 'File' && type !== 'OldFile') {
      throw new TarFormatError(`アーカイブに通常のファイル以外の項目があります: ${path}`);
    }
    let left = size;
    let consumed = false;
    const body = (async function* () {
      if (consumed) throw new Error('entry body read twice');
      consumed = true;
      while (left > 0) {
        const chunk = await reader.readSome(Math.min(left, 256 * 1024));
        left -= chunk.length;
        yield chunk;
      }
    })();
    yield {
      path,
      size,
      body,
      skip: async () => {
        await reader.skip(left);
        left = 0;
      },
    };
    if (left > 0) await reader.skip(left);
    await reader.skip(padding(size));
  }
}
