import 'server-only';
import fs from 'node:fs/promises';
import { mediaTypeForKey } from './media-types';
import { EMPTY_SHA256, sha256Hex, signRequest } from './sigv4';
import type {
  ByteRange,
  MediaStorage,
  PutSource,
  StoredObject,
  StoredObjectInfo,
} from './media-storage';
import { assertValidStorageKey } from '@/lib/media/storage-key';

/**
 * Media storage in an S3-compatible bucket, over fetch with our own SigV4 signer (no SDK).
 * Path-style addressing (`<endpoint>/<bucket>/<key>`), which AWS, R2, MinIO and the rest all
 * accept. Large files go up as a multipart upload in parts read one at a time from disk, so
 * memory stays at one part whatever the file's size.
 */

export type S3Config = {
  /** e.g. https://s3.ap-northeast-1.amazonaws.com, https://<account>.r2.cloudflarestorage.com */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Bytes per part of a multipart upload (S3's minimum is 5 MiB). */
  partSize?: number;
  /** Keys per page when listing (S3's default and maximum: 1,000). */
  listPageSize?: number;
  fetch?: typeof fetch;
};

export class S3Error extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'S3Error';
  }
}

const DEFAULT_PART_SIZE = 16 * 1024 * 1024;

const XML_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};
/** S3's XML escapes keys and tokens (our keys need none, but a bucket may hold others). */
const unescapeXml = (text: string) =>
  text.replace(
    /&(amp|lt|gt|quot|apos|#(\d+)|#x([0-9a-f]+));/gi,
    (whole, name: string, dec?: string, hex?: string) =>
      dec
        ? String.fromCodePoint(Number(dec))
        : hex
          ? String.fromCodePoint(parseInt(hex, 16))
          : (XML_ENTITIES[name.toLowerCase()] ?? whole),
  );
const asBody = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>;

export class S3Storage implements MediaStorage {
  readonly kind = 's3' as const;
  private readonly base: string;
  private readonly partSize: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly config: S3Config) {
    this.base = `${config.endpoint.replace(/\/+$/, '')}/${encodeURIComponent(config.bucket)}`;
    this.partSize = config.partSize ?? DEFAULT_PART_SIZE;
    this.fetchImpl = config.fetch ?? fetch;
  }

  private url(key: string, query: Record<string, string> = {}): URL {
    assertValidStorageKey(key); // keys need no escaping: [a-z0-9/_.-]
    const url = new URL(`${this.base}/${key}`);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    return url;
  }

  private async send(
    method: string,
    url: URL,
    options: { headers?: Record<string, string>; body?: Uint8Array } = {},
  ): Promise<Response> {
    const headers = signRequest({
      method,
      url,
      headers: options.headers,
      payloadHash: options.body ? sha256Hex(options.body) : EMPTY_SHA256,
      region: this.config.region,
      accessKeyId: this.config.accessKeyId,
      secretAccessKey: this.config.secretAccessKey,
    });
    return this.fetchImpl(url, {
      method,
      headers,
      body: options.body ? asBody(options.body) : undefined,
      redirect: 'manual',
    });
  }

  /** ListObjectsV2, page by page (1,000 keys each). */
  async *list(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const url = new URL(this.base);
      url.searchParams.set('list-type', '2');
      if (this.config.listPageSize)
        url.searchParams.set('max-keys', String(this.config.listPageSize));
      if (token) url.searchParams.set('continuation-token', token);
      const res = await this.send('GET', url);
      if (!res.ok) await this.fail('ListObjectsV2', res);
      const xml = await res.text();
      for (const match of xml.matchAll(/<Key>([^<]*)<\/Key>/g)) yield unescapeXml(match[1]!);
      const truncated = /<IsTruncated>true<\/IsTruncated>/.test(xml);
      const next = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
      token = truncated && next ? unescapeXml(next) : undefined;
    } while (token);
  }

  private async fail(what: string, res: Response): Promise<never> {
    const text = res.body ? (await res.text()).slice(0, 2000) : '';
    const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? res.statusText;
    throw new S3Error(`S3 ${what}: ${res.status} ${code}`, res.status);
  }

  async put(key: string, source: PutSource, contentType: string): Promise<void> {
    if (source instanceof Uint8Array) return this.putSingle(key, source, contentType);
    const { size } = await fs.stat(source.filePath);
    if (size <= this.partSize) {
      return this.putSingle(key, await fs.readFile(source.filePath), contentType);
    }
    return this.putMultipart(key, source.filePath, size, contentType);
  }

  private async putSingle(key: string, body: Uint8Array, contentType: string): Promise<void> {
    const res = await this.send('PUT', this.url(key), {
      headers: { 'content-type': contentType },
      body,
    });
    if (!res.ok) await this.fail(`PUT ${key}`, res);
    await res.body?.cancel();
  }

  private async putMultipart(
    key: string,
    filePath: string,
    size: number,
    contentType: string,
  ): Promise<void> {
    const created = await this.send('POST', this.url(key, { uploads: '' }), {
      headers: { 'content-type': contentType },
    });
    if (!created.ok) await this.fail(`CreateMultipartUpload ${key}`, created);
    const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await created.text())?.[1];
    if (!uploadId) throw new S3Error(`S3 CreateMultipartUpload ${key}: no UploadId`, 502);

    const etags: string[] = [];
    const handle = await fs.open(filePath, 'r');
    try {
      for (let offset = 0, part = 1; offset < size; offset += this.partSize, part++) {
        const bytes = new Uint8Array(Math.min(this.partSize, size - offset));
        const { bytesRead } = await handle.read(bytes, 0, bytes.length, offset);
        if (bytesRead !== bytes.length) throw new Error(`short read of ${filePath}`);
        const res = await this.send('PUT', this.url(key, { partNumber: String(part), uploadId }), {
          body: bytes,
        });
        if (!res.ok) await this.fail(`UploadPart ${key} #${part}`, res);
        await res.body?.cancel();
        const etag = res.headers.get('etag');
        if (!etag) throw new S3Error(`S3 UploadPart ${key} #${part}: no ETag`, 502);
        etags.push(etag);
      }
      const xml =
        '<CompleteMultipartUpload>' +
        etags
          .map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`)
          .join('') +
        '</CompleteMultipartUpload>';
      const done = await this.send('POST', this.url(key, { uploadId }), {
        headers: { 'content-type': 'application/xml' },
        body: new TextEncoder().encode(xml),
      });
      // CompleteMultipartUpload can fail with 200 and an <Error> body.
      const text = await done.text();
      if (!done.ok || text.includes('<Error>')) {
        const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ?? done.statusText;
        throw new S3Error(`S3 CompleteMultipartUpload ${key}: ${done.status} ${code}`, 502);
      }
    } catch (error) {
      await this.send('DELETE', this.url(key, { uploadId }))
        .then((res) => res.body?.cancel())
        .catch(() => undefined);
      throw error;
    } finally {
      await handle.close();
    }
  }

  private info(key: string, res: Response, size: number): StoredObjectInfo {
    const modified = res.headers.get('last-modified');
    return {
      key,
      size,
      contentType:
        res.headers.get('content-type') ??
        mediaTypeForKey(key)?.contentType ??
        'application/octet-stream',
      etag: res.headers.get('etag') ?? `"${size.toString(16)}"`,
      lastModified: modified ? new Date(modified) : new Date(0),
    };
  }

  async head(key: string): Promise<StoredObjectInfo | null> {
    const res = await this.send('HEAD', this.url(key));
    if (res.status === 404) return null;
    if (!res.ok) await this.fail(`HEAD ${key}`, res);
    return this.info(key, res, Number(res.headers.get('content-length') ?? 0));
  }

  async get(key: string, options: { range?: ByteRange } = {}): Promise<StoredObject | null> {
    const { range } = options;
    const res = await this.send('GET', this.url(key), {
      headers: range ? { range: `bytes=${range.start}-${range.end}` } : {},
    });
    if (res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    if (!res.ok || !res.body) await this.fail(`GET ${key}`, res);
    let size = Number(res.headers.get('content-length') ?? 0);
    if (res.status === 206) {
      const total = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1];
      if (!total) {
        await res.body!.cancel();
        throw new S3Error(`S3 GET ${key}: 206 without Content-Range`, 502);
      }
      size = Number(total);
    } else if (range) {
      // The store ignored the range: the caller asked for part and must get only that part.
      await res.body!.cancel();
      throw new S3Error(`S3 GET ${key}: range ignored`, 502);
    }
    return { ...this.info(key, res, size), body: res.body!, range };
  }

  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', this.url(key));
    await res.body?.cancel();
    if (!res.ok && res.status !== 404) await this.fail(`DELETE ${key}`, res);
  }
}
