import 'server-only';

/**
 * What every media storage does (src/server/platform/storage/storage.ts chooses one: the local
 * filesystem or an S3-compatible bucket). Its own module so that the implementations and
 * the chooser do not import each other.
 */

/** Inclusive byte positions, as in an HTTP Range. */
export type ByteRange = { start: number; end: number };

export type StoredObjectInfo = {
  key: string;
  /** The whole object's length, also when a range was asked for. */
  size: number;
  contentType: string;
  /** A quoted HTTP entity tag. */
  etag: string;
  lastModified: Date;
};

export type StoredObject = StoredObjectInfo & {
  /** The object's bytes, or those of `range` when one was asked for. Read or cancel it. */
  body: ReadableStream<Uint8Array>;
  range?: ByteRange;
};

/**
 * Bytes in memory, or a file on local disk that the storage takes over (it may move it away;
 * the caller removes it afterwards if it is still there).
 */
export type PutSource = Uint8Array | { filePath: string };

export interface MediaStorage {
  readonly kind: 'filesystem' | 's3';
  put(key: string, source: PutSource, contentType: string): Promise<void>;
  get(key: string, options?: { range?: ByteRange }): Promise<StoredObject | null>;
  head(key: string): Promise<StoredObjectInfo | null>;
  /** Removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored key, in no particular order (backups carry files nothing points at too). */
  list(): AsyncIterable<string>;
}
