import 'server-only';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { env } from '@/env';
import { BODY_IDLE_MS } from '@/server/platform/http/read-body';
import {
  IMAGE_HEADER_BYTES,
  type InspectedMedia,
  type MediaKind,
  type MediaLimits,
  MediaRejection,
  SNIFF_BYTES,
  inspectMedia,
  maxBytesFor,
  sniffMediaType,
  tooLargeMessage,
  unsupportedMessage,
} from './media-types';
import { type FilePart, MultipartForm, type MultipartLimits } from './multipart';
import type { MediaStorage } from './media-storage';
import { getStorage } from './storage';
import { japanClock } from '@/lib/format';
import { singleton } from '@/lib/singleton';

/**
 * Receiving one uploaded image, audio or video file (the content API's POST /api/media,
 * src/server/features/media/api-upload.ts, and the console's media library). The body is
 * streamed to a temporary file while its bytes are counted; the type is decided from the first
 * bytes, so a wrong or oversized file is refused as soon as that is known.
 *
 * Images are public (`/uploads/images/YYYY/MM/<random>.<ext>`); audio and video go under
 * `protected/` and are reachable only through signed URLs (`/media/protected/...`, see
 * src/server/platform/security/signing.ts).
 */

const MB = 1024 * 1024;

/** What the HTTP route accepts; a 2 GB video over one request is more than we want to take. */
export const UPLOAD_ROUTE_MAX_BYTES: Readonly<Record<MediaKind, number>> = {
  image: 10 * MB,
  audio: 200 * MB,
  video: 500 * MB,
};

/** Room for the multipart framing and small fields around the file. */
const MULTIPART_OVERHEAD = 1 * MB;
/** A text field sent with the file (alt text, kind): far more than any needs. */
const MAX_OTHER_FIELD_BYTES = 16 * 1024;
const MAX_PARTS = 20;

export type UploadResult = {
  url: string;
  width?: number;
  height?: number;
  fileSize: number;
  contentType: string;
};

export type UploadOptions = {
  storage?: MediaStorage;
  limits?: MediaLimits;
  now?: Date;
};

/** A stored upload: what the content API answers, and what the media library records. */
export type ReceivedUpload = UploadResult & {
  kind: MediaKind;
  /** The name the browser gave the file ('' if none). */
  filename: string;
  /** The small text fields sent before the file part (later ones are never read). */
  fields: Record<string, string>;
  /** SHA-256 of the file's bytes, hex: the same file uploaded again has the same one. */
  contentHash: string;
};

export type ReceiveOptions = UploadOptions & {
  /**
   * Called once the file is known good and before it is stored: throw to refuse it (the
   * temporary file is removed and nothing is stored).
   */
  check?: (
    media: InspectedMedia,
    fields: Record<string, string>,
    file: { contentHash: string },
  ) => void | Promise<void>;
};

/** Where an upload's bytes wait while they are checked, one `<uuid>.part` file each. */
const uploadTempPath = () => path.resolve(env().DATA_DIR, 'tmp', 'uploads');

const tempDir = singleton<{ ready?: Promise<string> }>('upload-temp-dir', () => ({}));

function uploadTempDir(): Promise<string> {
  tempDir.ready ??= fs
    .mkdir(uploadTempPath(), { recursive: true, mode: 0o700 })
    .then(() => uploadTempPath())
    .catch((error: unknown) => {
      tempDir.ready = undefined;
      throw error;
    });
  return tempDir.ready;
}

/**
 * Removes the temporary files of uploads a previous run never finished (a crash, a kill): run
 * at start (src/server/boot.ts). Only files untouched for twice the stall limit go: an upload
 * in flight writes at least every BODY_IDLE_MS or is ended, so a second process started on the
 * same data directory (refused by the database lock only later) never removes a live one.
 * Answers how many were removed.
 */
export async function sweepUploadTemps(now = Date.now()): Promise<number> {
  const dir = uploadTempPath();
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  const left: string[] = [];
  for (const name of names.filter((entry) => entry.endsWith('.part'))) {
    const stat = await fs.stat(path.join(dir, name)).catch(() => null);
    if (stat && now - stat.mtimeMs > 2 * BODY_IDLE_MS) left.push(name);
  }
  await Promise.all(left.map((name) => fs.rm(path.join(dir, name), { force: true })));
  return left.length;
}

export function storageKeyFor(media: InspectedMedia, now: Date): string {
  const folder = media.type.kind === 'image' ? 'images' : 'protected';
  // The month in Japan, as every date the site names.
  const [yyyy, mm] = japanClock(now).split('-');
  return `${folder}/${yyyy}/${mm}/${randomBytes(16).toString('hex')}.${media.type.extension}`;
}

export function publicUrlFor(key: string): string {
  return key.startsWith('images/') ? `/uploads/${key}` : `/media/${key}`;
}

/** Keeps names searchable and short: path segments, control characters and length dropped. */
export function cleanFilename(name: string | null | undefined): string {
  if (!name) return '';
  const base = name.split(/[\\/]/).at(-1) ?? '';
  // eslint-disable-next-line no-control-regex
  return base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200);
}

type Received = {
  tempFile: string;
  size: number;
  head: Uint8Array;
  filename: string;
  fields: Record<string, string>;
  contentHash: string;
};

/** The multipart limits of an upload: one file, a few small fields before it. */
function formLimits(fileBytes: number): MultipartLimits {
  return {
    fileBytes,
    files: 1,
    fields: MAX_PARTS - 1,
    fieldBytes: MAX_OTHER_FIELD_BYTES,
    parts: MAX_PARTS,
  };
}

/** Streams the `file` part to a temporary file, refusing early what cannot pass. */
async function receiveFile(
  form: MultipartForm,
  tempFile: string,
  limits: MediaLimits,
): Promise<Received> {
  // No prototype: a field named __proto__ or constructor is a field like any other.
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  let file: FilePart | undefined;
  while (!file) {
    const part = await form.next();
    if (!part || (part.kind === 'file' && part.name !== 'file')) {
      throw new MediaRejection(400, 'file フィールドにファイルを指定してください。');
    }
    if (part.kind === 'file') file = part;
    // The first value of a name wins, as a form's single fields have one.
    else if (!Object.hasOwn(fields, part.name)) fields[part.name] = part.value;
  }

  const overallLimit = Math.max(
    maxBytesFor('image', limits),
    maxBytesFor('audio', limits),
    maxBytesFor('video', limits),
  );
  let limit = overallLimit;
  let kind: MediaKind | null = null;
  const headChunks: Uint8Array[] = [];
  let headLength = 0;
  let size = 0;
  let sniffed = false;
  const hash = createHash('sha256');

  const sniffEarly = async () => {
    sniffed = true;
    const result = await sniffMediaType(Buffer.concat(headChunks, headLength));
    // Only the type can be judged before the end; a cut header is judged on the whole file.
    if (!result.ok && result.reason === 'unsupported') {
      throw new MediaRejection(400, unsupportedMessage(result.detected));
    }
    if (result.ok) {
      kind = result.type.kind;
      limit = maxBytesFor(kind, limits);
    }
  };

  const handle = await fs.open(tempFile, 'wx', 0o600);
  try {
    for await (const chunk of file.body) {
      size += chunk.length;
      if (size > limit) throw new MediaRejection(413, tooLargeMessage(kind, limit));
      if (headLength < IMAGE_HEADER_BYTES) {
        const take = chunk.subarray(0, IMAGE_HEADER_BYTES - headLength);
        headChunks.push(Uint8Array.from(take)); // a copy: the parser may reuse its buffer
        headLength += take.length;
      }
      if (!sniffed && headLength >= SNIFF_BYTES) await sniffEarly();
      hash.update(chunk);
      await handle.write(chunk);
    }
    await handle.datasync();
  } finally {
    await handle.close();
  }
  return {
    tempFile,
    size,
    head: Buffer.concat(headChunks, headLength),
    filename: cleanFilename(file.filename),
    fields,
    contentHash: hash.digest('hex'),
  };
}

const NOT_MULTIPART_MESSAGE =
  'multipart/form-data で、file フィールドにファイルを入れて送ってください。';

/**
 * Streams a multipart upload's `file` part to a temporary file, checks it (type by its bytes,
 * size, image header, then `options.check`) and stores it. Throws MediaRejection or
 * MultipartError (or whatever `check` throws) when refused; nothing is stored then. Shared by
 * the content API's POST /api/media and the console's POST /api/admin/media.
 */
export async function receiveUpload(
  request: Request,
  options: ReceiveOptions = {},
): Promise<ReceivedUpload> {
  const limits = { ...UPLOAD_ROUTE_MAX_BYTES, ...options.limits };
  const overall = Math.max(limits.image, limits.audio, limits.video);
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > overall + MULTIPART_OVERHEAD) {
    await request.body?.cancel().catch(() => undefined);
    throw new MediaRejection(413, tooLargeMessage(null, overall));
  }
  const form = MultipartForm.open(request, formLimits(overall));
  if (!form) throw new MediaRejection(400, NOT_MULTIPART_MESSAGE);

  let tempFile: string | undefined;
  try {
    let received: Received;
    try {
      tempFile = path.join(await uploadTempDir(), `${randomUUID()}.part`);
      received = await receiveFile(form, tempFile, limits);
    } finally {
      // Whatever follows the file (or the rest of a refused one) is not read.
      await form.close();
    }
    const media = await inspectMedia(received.head, received.size, limits);
    await options.check?.(media, received.fields, { contentHash: received.contentHash });
    const key = storageKeyFor(media, options.now ?? new Date());
    await (options.storage ?? getStorage()).put(
      key,
      { filePath: tempFile },
      media.type.contentType,
    );
    return {
      url: publicUrlFor(key),
      ...(media.width !== undefined ? { width: media.width, height: media.height } : {}),
      fileSize: media.size,
      contentType: media.type.contentType,
      kind: media.type.kind,
      filename: received.filename,
      fields: received.fields,
      contentHash: received.contentHash,
    };
  } finally {
    if (tempFile) await fs.rm(tempFile, { force: true });
  }
}
