import 'server-only';

/**
 * A streaming multipart/form-data reader (RFC 7578). Request.formData() would hold the whole
 * body in memory; this hands out a part's bytes as they arrive, keeping only a boundary's
 * length back, so a large upload can go straight to disk.
 */

export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

export type PartHeaders = {
  name: string | null;
  filename: string | null;
  contentType: string | null;
};

/** The boundary of a multipart/form-data Content-Type, or null. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  return boundary && /^[0-9A-Za-z'()+_,\-./:=? ]+$/.test(boundary) ? boundary : null;
}

/** Reads `name="…"` style parameters of a Content-Disposition value. */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const pattern = /;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]*))/g;
  for (let m = pattern.exec(value); m; m = pattern.exec(value)) {
    const raw = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '');
    params.set(m[1]!.toLowerCase(), raw);
  }
  return params;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

export type MultipartLimits = {
  /** The header block of one part. */
  headerBytes?: number;
  /** Anything before the first boundary. */
  preambleBytes?: number;
};

type State = 'preamble' | 'delimiter' | 'headers' | 'body' | 'end';

export class MultipartReader {
  private buffer: Buffer = Buffer.from(CRLF); // so that a body opening with --boundary matches
  private sourceDone = false;
  private state: State = 'preamble';
  private readonly delimiter: Buffer;
  private readonly headerBytes: number;
  private readonly preambleBytes: number;

  constructor(
    private readonly source: ReadableStreamDefaultReader<Uint8Array>,
    boundary: string,
    limits: MultipartLimits = {},
  ) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    this.headerBytes = limits.headerBytes ?? 16 * 1024;
    this.preambleBytes = limits.preambleBytes ?? 64 * 1024;
  }

  /** Reads one more chunk from the source; false at its end. */
  private async fill(): Promise<boolean> {
    if (this.sourceDone) return false;
    let result: ReadableStreamReadResult<Uint8Array>;
    try {
      result = await this.source.read();
    } catch {
      throw new MultipartError('アップロードが途中で中断されました。');
    }
    if (result.done) {
      this.sourceDone = true;
      return false;
    }
    const chunk = Buffer.from(
      result.value.buffer,
      result.value.byteOffset,
      result.value.byteLength,
    );
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    return true;
  }

  private async need(bytes: number): Promise<void> {
    while (this.buffer.length < bytes) {
      if (!(await this.fill()))
        throw new MultipartError('multipart の本文が途中で終わっています。');
    }
  }

  /** The headers of the next part, or null after the last one. Skips the rest of the current part. */
  async nextPart(): Promise<PartHeaders | null> {
    while (this.state === 'body') await this.readChunk();
    if (this.state === 'end') return null;

    if (this.state === 'preamble') {
      for (;;) {
        const at = this.buffer.indexOf(this.delimiter);
        if (at >= 0) {
          this.buffer = this.buffer.subarray(at + this.delimiter.length);
          break;
        }
        if (this.buffer.length > this.preambleBytes + this.delimiter.length) {
          throw new MultipartError('multipart の境界 (boundary) が見つかりません。');
        }
        if (!(await this.fill())) {
          throw new MultipartError('multipart の境界 (boundary) が見つかりません。');
        }
      }
      this.state = 'delimiter';
    }

    // After a delimiter: "--" closes the body; otherwise optional white space, then CRLF.
    await this.need(2);
    if (this.buffer[0] === 0x2d && this.buffer[1] === 0x2d) {
      this.state = 'end';
      return null;
    }
    for (;;) {
      const crlf = this.buffer.indexOf(CRLF);
      if (crlf >= 0) {
        if (!/^[ \t]*$/.test(this.buffer.subarray(0, crlf).toString('latin1'))) {
          throw new MultipartError('multipart の境界の後ろが不正です。');
        }
        this.buffer = this.buffer.subarray(crlf + 2);
        break;
      }
      if (this.buffer.length > 256) throw new MultipartError('multipart の境界の後ろが不正です。');
      await this.need(this.buffer.length + 1);
    }

    this.state = 'headers';
    let block: string;
    for (;;) {
      if (this.buffer.subarray(0, 2).equals(CRLF)) {
        block = '';
        this.buffer = this.buffer.subarray(2);
        break;
      }
      const end = this.buffer.indexOf(HEADER_END);
      if (end >= 0) {
        block = this.buffer.subarray(0, end).toString('utf8');
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
        break;
      }
      if (this.buffer.length > this.headerBytes) {
        throw new MultipartError('multipart のヘッダーが長すぎます。');
      }
      await this.need(this.buffer.length + 1);
    }

    const headers = new Map<string, string>();
    for (const line of block.split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0)
        headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const disposition = headers.get('content-disposition') ?? '';
    if (!/^form-data\s*(;|$)/i.test(disposition)) {
      throw new MultipartError(
        'multipart の各部分には Content-Disposition: form-data が必要です。',
      );
    }
    const params = dispositionParams(disposition);
    this.state = 'body';
    return {
      name: params.get('name') ?? null,
      filename: params.get('filename') ?? null,
      contentType: headers.get('content-type') ?? null,
    };
  }

  /** The next bytes of the current part's body, or null at its end. */
  async readChunk(): Promise<Uint8Array | null> {
    if (this.state !== 'body') return null;
    for (;;) {
      const at = this.buffer.indexOf(this.delimiter);
      if (at >= 0) {
        const out = this.buffer.subarray(0, at);
        this.buffer = this.buffer.subarray(at + this.delimiter.length);
        this.state = 'delimiter';
        return out.length ? out : null;
      }
      // Everything but a delimiter's length (which may be its start) is body for sure.
      const safe = this.buffer.length - (this.delimiter.length - 1);
      if (safe > 0) {
        const out = this.buffer.subarray(0, safe);
        this.buffer = this.buffer.subarray(safe);
        return out;
      }
      if (!(await this.fill())) {
        throw new MultipartError('multipart の本文が途中で終わっています。');
      }
    }
  }

  /** Stops reading the source (after the part we wanted, or on an error). */
  async cancel(): Promise<void> {
    this.state = 'end';
    await this.source.cancel().catch(() => undefined);
  }
}
