import 'server-only';
import { randomUUID } from 'node:crypto';
import type { Dirent } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Env, env } from '@/env';
import { mediaTypeForKey } from './media-types';
import { StorageKeyError, assertValidStorageKey } from '@/lib/media/storage-key';
import type {
  ByteRange,
  MediaStorage,
  PutSource,
  StoredObject,
  StoredObjectInfo,
} from './media-storage';
import { S3Storage, type S3Config } from './s3-storage';
import { singleton } from '@/lib/singleton';

/**
 * Where uploaded files live: a directory under DATA_DIR by default, an S3-compatible bucket
 * when configured (needed as soon as more than one app instance runs). Keys are relative,
 * lower-case paths such as `images/2026/01/<random>.jpg`; every implementation checks them.
 */

// ---------------------------------------------------------------------------------------------
// Local filesystem

const READ_CHUNK = 256 * 1024;

/** A pull-based stream of a byte range of an open file; it closes the file when done. */
function fileRangeStream(
  handle: fs.FileHandle,
  start: number,
  end: number,
): ReadableStream<Uint8Array> {
  let position = start;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await handle.close();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const remaining = end + 1 - position;
        if (remaining <= 0) {
          await close();
          controller.close();
          return;
        }
        const buffer = new Uint8Array(Math.min(READ_CHUNK, remaining));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) {
          await close();
          controller.error(new Error('file shrank while being read'));
          return;
        }
        position += bytesRead;
        controller.enqueue(buffer.subarray(0, bytesRead));
        if (position > end) {
          await close();
          controller.close();
        }
      } catch (error) {
        await close().catch(() => undefined);
        controller.error(error);
      }
    },
    async cancel() {
      await close();
    },
  });
}

const isMissing = (error: unknown) =>
  error instanceof Error &&
  ['ENOENT', 'ENOTDIR', 'EISDIR'].includes((error as NodeJS.ErrnoException).code ?? '');

/** Uploads are readable by the server's OS user only (the server serves them itself). */
const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export class FileSystemStorage implements MediaStorage {
  readonly kind = 'filesystem' as const;
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a key, checked twice: by the key rules and by where it resolves to. */
  pathOf(key: string): string {
    assertValidStorageKey(key);
    const full = path.resolve(this.root, key);
    if (!full.startsWith(this.root + path.sep)) throw new StorageKeyError(key);
    return full;
  }

  private async tempPath(): Promise<string> {
    // Inside the root so that the final rename stays on one filesystem; keys cannot start
    // with a dot, so nothing under .tmp is ever served.
    const dir = path.join(this.root, '.tmp');
    await fs.mkdir(dir, { recursive: true, mode: DIR_MODE });
    return path.join(dir, `${randomUUID()}.part`);
  }

  async put(key: string, source: PutSource, _contentType: string): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true, mode: DIR_MODE });
    if (!(source instanceof Uint8Array)) {
      try {
        // A rename keeps the file's mode: narrow it first, whoever created it.
        await fs.chmod(source.filePath, FILE_MODE);
        await fs.rename(source.filePath, target);
        return;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      }
    }
    // Write beside the target, then rename: readers see the old file or the whole new one.
    const temp = await this.tempPath();
    try {
      if (source instanceof Uint8Array) {
        const handle = await fs.open(temp, 'wx', FILE_MODE);
        try {
          await handle.writeFile(source);
          await handle.datasync();
        } finally {
          await handle.close();
        }
      } else {
        await fs.copyFile(source.filePath, temp);
        await fs.chmod(temp, FILE_MODE); // copyFile gives the copy the source's mode
      }
      await fs.rename(temp, target);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  }

  async head(key: string): Promise<StoredObjectInfo | null> {
    const file = this.pathOf(key);
    try {
      const stat = await fs.stat(file);
      return stat.isFile() ? this.info(key, stat) : null;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<StoredObject | null> {
    const file = this.pathOf(key);
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      const info = this.info(key, stat);
      const range = options.range;
      if (range && (range.start < 0 || range.end < range.start || range.end >= info.size)) {
        throw new RangeError(`range ${range.start}-${range.end} outside 0-${info.size - 1}`);
      }
      const start = range?.start ?? 0;
      const end = range?.end ?? info.size - 1;
      return { ...info, body: fileRangeStream(handle, start, end), range };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<string> {
    const dirs = [this.root];
    for (let dir = dirs.pop(); dir !== undefined; dir = dirs.pop()) {
      let entries: Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) continue;
        throw error;
      }
      for (const entry of entries) {
        // Keys never start with a dot: .tmp (writes in progress) is not content.
        if (entry.name.startsWith('.')) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) dirs.push(full);
        else if (entry.isFile()) yield path.relative(this.root, full).split(path.sep).join('/');
      }
    }
  }

  private info(key: string, stat: { size: number; mtimeMs: number }): StoredObjectInfo {
    const mtime = Math.floor(stat.mtimeMs);
    return {
      key,
      size: stat.size,
      contentType: mediaTypeForKey(key)?.contentType ?? 'application/octet-stream',
      etag: `"${stat.size.toString(16)}-${mtime.toString(16)}"`,
      lastModified: new Date(mtime),
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Choice

/** S3-compatible storage when its settings are given (all but the region required), else DATA_DIR/uploads. */
export function storageFromSettings(settings: Env): MediaStorage {
  const s3: Partial<S3Config> = {
    endpoint: settings.S3_ENDPOINT,
    bucket: settings.S3_BUCKET,
    region: settings.S3_REGION,
    accessKeyId: settings.S3_ACCESS_KEY_ID,
    secretAccessKey: settings.S3_SECRET_ACCESS_KEY,
  };
  const given = Object.entries(s3).filter(([, v]) => v);
  if (given.length === 0 || (given.length === 1 && s3.region)) {
    return new FileSystemStorage(path.join(settings.DATA_DIR, 'uploads'));
  }
  const missing = (['endpoint', 'bucket', 'accessKeyId', 'secretAccessKey'] as const).filter(
    (k) => !s3[k],
  );
  if (missing.length) {
    const names: Record<string, string> = {
      endpoint: 'S3_ENDPOINT',
      bucket: 'S3_BUCKET',
      accessKeyId: 'S3_ACCESS_KEY_ID',
      secretAccessKey: 'S3_SECRET_ACCESS_KEY',
    };
    throw new Error(
      `S3 互換ストレージの設定が足りません: ${missing.map((k) => names[k]).join(', ')} を指定してください。`,
    );
  }
  return new S3Storage({
    endpoint: s3.endpoint!,
    bucket: s3.bucket!,
    region: s3.region ?? 'us-east-1',
    accessKeyId: s3.accessKeyId!,
    secretAccessKey: s3.secretAccessKey!,
  });
}

const memo = singleton<{ cached?: { settings: Env; storage: MediaStorage } }>(
  'media-storage',
  () => ({}),
);

/** The app's storage, made once per settings object (tests that reset env() get a new one). */
export function getStorage(): MediaStorage {
  const settings = env();
  if (memo.cached?.settings !== settings) {
    memo.cached = { settings, storage: storageFromSettings(settings) };
  }
  return memo.cached.storage;
}
