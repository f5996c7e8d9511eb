import 'server-only';
import { AppError } from '@/lib/errors';
import busboy from 'busboy';
import type { Readable } from 'node:stream';
import { readWithin } from '@/server/platform/http/read-body';

/**
 * multipart/form-data bodies, parsed by busboy (a maintained streaming parser: RFC 7578,
 * quoted boundaries, RFC 5987 `filename*`, path-stripped file names) and handed out one part at
 * a time. A file part's bytes arrive as they are read from the request, under back-pressure, so
 * a 500 MB video goes to disk without sitting in memory. What busboy does not bound (the bytes
 * before a boundary, a field value past its limit) is bounded here, and every way a body can
 * be wrong ends in a MultipartError with a Japanese message: never a hang, never a crash. A
 * body that stops arriving ends too (BODY_IDLE_MS), and so does one that busboy parses on past
 * a fault: no part after a fault is handed out.
 */

export class MultipartError extends AppError {
  constructor(message: string) {
    super(message, { status: 400, code: 'multipart-unreadable' });
    this.name = 'MultipartError';
  }
}

export type MultipartLimits = {
  /** The largest file part; a longer one makes its body end with a MultipartError. */
  fileBytes: number;
  /** File parts; any more are skipped unread (the first ones are what a form sends). */
  files: number;
  /** Text fields; one more is refused. */
  fields: number;
  /** The largest text field value. */
  fieldBytes: number;
  /** Parts of any kind. */
  parts: number;
};

export type FieldPart = { kind: 'field'; name: string; value: string };
export type FilePart = {
  kind: 'file';
  name: string;
  /** As the client sent it, without any directory part; '' when none was given. */
  filename: string;
  /** The client's word, never trusted for what the bytes are. */
  contentType: string;
  /** Read it to its end, or ask for the next part (which skips the rest of it). */
  body: AsyncIterable<Uint8Array>;
};
export type MultipartPart = FieldPart | FilePart;

/** Bytes read outside any file part (preamble, headers, one field) before giving up. */
const IDLE_ALLOWANCE = 128 * 1024;

export const INTERRUPTED_MESSAGE = 'アップロードが途中で中断されました。';
export const STALLED_MESSAGE =
  'アップロードのデータが途中で届かなくなったため、受け付けを打ち切りました。もう一度お試しください。';
export const TRUNCATED_MESSAGE = 'multipart の本文が途中で終わっています。';
export const TOO_MANY_PARTS_MESSAGE = 'multipart の項目が多すぎます。';
export const FIELD_TOO_LARGE_MESSAGE = 'ファイル以外の項目が大きすぎます。';
export const FILE_TOO_LARGE_MESSAGE = 'ファイルが大きすぎます。';
export const BAD_HEADER_MESSAGE = 'multipart の各部分のヘッダーが不正か、長すぎます。';
export const NO_BOUNDARY_MESSAGE =
  'multipart の境界 (boundary) が見つからないか、項目が大きすぎます。';
export const UNREADABLE_MESSAGE = 'multipart の本文を読み取れませんでした。';

/** busboy's own errors (English, for developers) in the words a user gets. */
function fromParserError(error: unknown): MultipartError {
  if (error instanceof MultipartError) return error;
  const message = error instanceof Error ? error.message : '';
  if (/^Unexpected end of (form|file)$/.test(message)) return new MultipartError(TRUNCATED_MESSAGE);
  if (message === 'Malformed part header') return new MultipartError(BAD_HEADER_MESSAGE);
  return new MultipartError(UNREADABLE_MESSAGE);
}

/**
 * The boundary of a multipart/form-data Content-Type, or null: RFC 2046 allows 1 to 70 of
 * these characters, quoted or not. busboy takes longer ones; we do not.
 */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  return boundary && /^[0-9A-Za-z'()+_,\-./:=? ]+$/.test(boundary) ? boundary : null;
}

type FileStream = Readable & { truncated?: boolean };

export class MultipartForm {
  private readonly parser: busboy.Busboy;
  private readonly source: ReadableStreamDefaultReader<Uint8Array>;
  private readonly queue: MultipartPart[] = [];
  private readonly pumping: Promise<void>;
  private failure: MultipartError | null = null;
  private finished = false;
  private closed = false;
  /** The file part being received, until its last byte. */
  private openFile: FileStream | null = null;
  /** Bytes fed since a part last began or ended outside a file part. */
  private idleBytes = 0;
  /** Counts part events, so the pump can tell whether a chunk moved the form on. */
  private progress = 0;
  private wakeReader: (() => void) | null = null;
  private wakePump: (() => void) | null = null;

  private constructor(
    contentType: string,
    body: ReadableStream<Uint8Array>,
    signal: AbortSignal | undefined,
    limits: MultipartLimits,
  ) {
    this.parser = busboy({
      headers: { 'content-type': contentType },
      // Browsers send file names as raw UTF-8; busboy's default would read them as Latin-1.
      defParamCharset: 'utf8',
      preservePath: false,
      limits: {
        // One byte over, so that a file of exactly the limit is not taken for a cut one.
        fileSize: limits.fileBytes + 1,
        files: limits.files,
        fields: limits.fields,
        fieldSize: limits.fieldBytes,
        parts: limits.parts,
        // A part's header block is bounded by busboy itself (16 KB, then 'Malformed part header').
      },
    });
    this.parser.on('file', (name, stream: FileStream, info) => {
      stream.on('error', () => undefined); // reported through body; an unread one must not crash
      // busboy reports a broken part header and parses on through the rest of the chunk: a
      // file after the fault would never end, as nothing more is fed (found by the fuzz run).
      if (this.failure || this.closed) return void stream.resume();
      this.progress++;
      this.openFile = stream;
      stream.once('end', () => {
        if (this.openFile === stream) this.openFile = null;
      });
      stream.once('limit', () => {
        // busboy stops filling the stream but reads on to the next boundary, which may never
        // come: end it here (body then throws) and read no more of the request.
        stream.push(null);
        this.fail(new MultipartError(FILE_TOO_LARGE_MESSAGE));
      });
      this.push({
        kind: 'file',
        name,
        filename: info.filename ?? '',
        contentType: info.mimeType,
        body: this.fileBody(stream),
      });
    });
    this.parser.on('field', (name, value, info) => {
      if (this.failure || this.closed) return;
      this.progress++;
      if (info.valueTruncated) return this.fail(new MultipartError(FIELD_TOO_LARGE_MESSAGE));
      this.push({ kind: 'field', name, value });
    });
    this.parser.on('partsLimit', () => this.fail(new MultipartError(TOO_MANY_PARTS_MESSAGE)));
    this.parser.on('fieldsLimit', () => this.fail(new MultipartError(TOO_MANY_PARTS_MESSAGE)));
    this.parser.on('error', (error) => this.fail(fromParserError(error)));
    this.parser.on('finish', () => {
      this.finished = true;
      this.notify();
    });
    const interrupted = () => this.fail(new MultipartError(INTERRUPTED_MESSAGE), true);
    signal?.addEventListener('abort', interrupted, { once: true });
    this.source = body.getReader();
    this.pumping = this.pump();
    // A request aborted before its parts are read never fires 'abort' again: without this the
    // reader would wait for a body that is not coming (CI's unit run caught it on a slow start).
    if (signal?.aborted) interrupted();
  }

  /**
   * The parts of a multipart/form-data request, or null when it is not one (no body, another
   * type, no valid boundary): the caller answers that in its own words.
   */
  static open(request: Request, limits: MultipartLimits): MultipartForm | null {
    const contentType = request.headers.get('content-type');
    if (!request.body || !contentType || !multipartBoundary(contentType)) return null;
    try {
      return new MultipartForm(contentType, request.body, request.signal, limits);
    } catch {
      return null; // busboy refused the Content-Type itself
    }
  }

  /**
   * The next part, null after the last; throws MultipartError when the body is refused. Parts
   * before a fault come first, whatever the chunks the body arrived in.
   */
  async next(): Promise<MultipartPart | null> {
    for (;;) {
      const part = this.queue.shift();
      if (part) return part;
      if (this.failure) throw this.failure;
      if (this.finished || this.closed) return null;
      this.openFile?.resume(); // the rest of a file part nobody reads: skipped
      await new Promise<void>((resolve) => (this.wakeReader = resolve));
    }
  }

  /** Stops reading the request (after the part we wanted, or on an error). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.wakePump?.();
    this.notify();
    this.openFile?.destroy();
    this.parser.destroy();
    await this.source.cancel().catch(() => undefined);
    await this.pumping;
  }

  private push(part: MultipartPart) {
    this.queue.push(part);
    this.notify();
  }

  private notify() {
    const wake = this.wakeReader;
    this.wakeReader = null;
    wake?.();
  }

  /**
   * Refuses the rest of the body. The parser reports a fault only after the file part before
   * it has ended (busboy itself destroys a file cut short), so that file stays readable; when
   * the client goes away, the open file is cut here.
   */
  private fail(error: MultipartError, cutOpenFile = false) {
    if (this.failure || this.closed) return;
    this.failure = error;
    if (cutOpenFile) this.openFile?.destroy(error);
    this.wakePump?.();
    this.notify();
    void this.source.cancel().catch(() => undefined);
  }

  private async *fileBody(stream: FileStream): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of stream) yield chunk as Buffer;
    } catch (error) {
      throw this.failure ?? fromParserError(error);
    }
    if (stream.truncated) throw new MultipartError(FILE_TOO_LARGE_MESSAGE);
  }

  /** Feeds the request into the parser one chunk at a time, waiting while a file is unread. */
  private async pump(): Promise<void> {
    try {
      for (;;) {
        const next = await readWithin(this.source);
        if (this.failure || this.closed) return;
        if (next === 'stalled') return this.fail(new MultipartError(STALLED_MESSAGE), true);
        const { done, value } = next;
        if (done) {
          this.parser.end();
          return;
        }
        const inFile = this.openFile !== null;
        const progress = this.progress;
        await new Promise<void>((resolve) => {
          this.wakePump = resolve;
          this.parser.write(value, () => resolve());
        });
        this.wakePump = null;
        if (inFile || this.progress !== progress) this.idleBytes = 0;
        else if ((this.idleBytes += value.length) > IDLE_ALLOWANCE)
          return this.fail(new MultipartError(NO_BOUNDARY_MESSAGE), true);
      }
    } catch {
      // The client went away (the request body errored).
      this.fail(new MultipartError(INTERRUPTED_MESSAGE), true);
    }
  }
}
