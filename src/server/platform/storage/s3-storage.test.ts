import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Error, S3Storage } from './s3-storage';
import { sha256Hex, signRequest } from './sigv4';

/**
 * A small stand-in for an S3 endpoint (path-style, single objects and multipart uploads) that
 * re-signs every request from what actually arrived on the wire and refuses mismatches, so
 * the test fails if fetch sends anything other than what was signed.
 */
const credentials = { accessKeyId: 'TESTKEY', secretAccessKey: 'test-secret', region: 'auto' };

type StoredItem = { body: Buffer; contentType: string; etag: string; modified: Date };
const objects = new Map<string, StoredItem>();
const uploads = new Map<string, { key: string; contentType: string; parts: Map<number, Buffer> }>();
const log: string[] = [];

function verify(req: http.IncomingMessage, body: Buffer): string | null {
  const auth = req.headers.authorization ?? '';
  const signed = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? [];
  const date = req.headers['x-amz-date'] as string;
  if (sha256Hex(body) !== req.headers['x-amz-content-sha256']) return 'XAmzContentSHA256Mismatch';
  const headers: Record<string, string> = {};
  for (const name of signed) {
    if (name !== 'host' && name !== 'x-amz-date' && name !== 'x-amz-content-sha256') {
      headers[name] = String(req.headers[name]);
    }
  }
  const now = new Date(
    `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
  );
  const expected = signRequest({
    ...credentials,
    method: req.method!,
    url: new URL(req.url!, `http://${req.headers.host}`),
    headers,
    payloadHash: String(req.headers['x-amz-content-sha256']),
    now,
  });
  return expected.authorization === auth ? null : 'SignatureDoesNotMatch';
}

function reply(
  res: http.ServerResponse,
  status: number,
  headers: Record<string, string> = {},
  body = '',
) {
  res.writeHead(status, headers);
  res.end(body);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const url = new URL(req.url!, 'http://x');
    log.push(`${req.method} ${url.pathname}${url.search}`);
    const error = verify(req, body);
    if (error) return reply(res, 403, {}, `<Error><Code>${error}</Code></Error>`);
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = rest.join('/');
    if (bucket !== 'media') return reply(res, 404, {}, '<Error><Code>NoSuchBucket</Code></Error>');
    const q = url.searchParams;

    if (req.method === 'GET' && key === '' && q.get('list-type') === '2') {
      // Two keys a page, the token being the last key given.
      const all = [...objects.keys()].sort();
      const after = q.get('continuation-token');
      const rest = after ? all.filter((k) => k > after) : all;
      const page = rest.slice(0, Number(q.get('max-keys') ?? 1000));
      const more = rest.length > page.length;
      return reply(
        res,
        200,
        {},
        `<ListBucketResult>${page.map((k) => `<Contents><Key>${k.replace(/&/g, '&amp;')}</Key></Contents>`).join('')}` +
          `<IsTruncated>${more}</IsTruncated>` +
          (more ? `<NextContinuationToken>${page.at(-1)}</NextContinuationToken>` : '') +
          '</ListBucketResult>',
      );
    }
    if (req.method === 'POST' && q.has('uploads')) {
      const id = `up${uploads.size + 1}`;
      uploads.set(id, { key, contentType: req.headers['content-type'] ?? '', parts: new Map() });
      return reply(
        res,
        200,
        {},
        `<InitiateMultipartUploadResult><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      );
    }
    if (req.method === 'PUT' && q.has('uploadId')) {
      const upload = uploads.get(q.get('uploadId')!);
      if (!upload) return reply(res, 404, {}, '<Error><Code>NoSuchUpload</Code></Error>');
      upload.parts.set(Number(q.get('partNumber')), body);
      return reply(res, 200, { etag: `"${sha256Hex(body).slice(0, 32)}"` });
    }
    if (req.method === 'POST' && q.has('uploadId')) {
      const upload = uploads.get(q.get('uploadId')!)!;
      const numbers = [...body.toString().matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) =>
        Number(m[1]),
      );
      const whole = Buffer.concat(numbers.map((n) => upload.parts.get(n)!));
      objects.set(upload.key, {
        body: whole,
        contentType: upload.contentType,
        etag: '"multi-2"',
        modified: new Date(),
      });
      uploads.delete(q.get('uploadId')!);
      return reply(res, 200, {}, '<CompleteMultipartUploadResult></CompleteMultipartUploadResult>');
    }
    if (req.method === 'PUT') {
      objects.set(key, {
        body,
        contentType: req.headers['content-type'] ?? 'binary/octet-stream',
        etag: `"${sha256Hex(body).slice(0, 32)}"`,
        modified: new Date('2026-01-02T03:04:05Z'),
      });
      return reply(res, 200, { etag: objects.get(key)!.etag });
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      return reply(res, 204);
    }
    const item = objects.get(key);
    if (!item)
      return reply(
        res,
        404,
        {},
        req.method === 'HEAD' ? '' : '<Error><Code>NoSuchKey</Code></Error>',
      );
    const headers = {
      'content-type': item.contentType,
      etag: item.etag,
      'last-modified': item.modified.toUTCString(),
    };
    const range = /^bytes=(\d+)-(\d+)$/.exec(String(req.headers.range ?? ''));
    if (range && req.method === 'GET') {
      const [start, end] = [Number(range[1]), Number(range[2])];
      return reply(
        res,
        206,
        { ...headers, 'content-range': `bytes ${start}-${end}/${item.body.length}` },
        item.body.subarray(start, end + 1).toString('latin1'),
      );
    }
    res.writeHead(200, { ...headers, 'content-length': String(item.body.length) });
    res.end(req.method === 'HEAD' ? undefined : item.body);
  });
});

let storage: S3Storage;
let tmp: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  storage = new S3Storage({
    ...credentials,
    endpoint: `http://127.0.0.1:${port}/`,
    bucket: 'media',
    partSize: 1024,
  });
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-s3-'));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
});

const text = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

describe('S3Storage against an S3-compatible endpoint', () => {
  it('puts, heads, gets (whole and a range) and deletes an object', async () => {
    await storage.put('images/2026/01/a.png', new TextEncoder().encode('0123456789'), 'image/png');
    expect(log.at(-1)).toBe('PUT /media/images/2026/01/a.png');

    const info = await storage.head('images/2026/01/a.png');
    expect(info).toMatchObject({ size: 10, contentType: 'image/png' });
    expect(info!.lastModified.toISOString()).toBe('2026-01-02T03:04:05.000Z');

    const whole = await storage.get('images/2026/01/a.png');
    expect(await text(whole!.body)).toBe('0123456789');

    const part = await storage.get('images/2026/01/a.png', { range: { start: 3, end: 6 } });
    expect(part!.size).toBe(10);
    expect(await text(part!.body)).toBe('3456');

    await storage.delete('images/2026/01/a.png');
    expect(await storage.head('images/2026/01/a.png')).toBeNull();
    expect(await storage.get('images/2026/01/a.png')).toBeNull();
  });

  it('uploads a file larger than one part as a multipart upload', async () => {
    const file = path.join(tmp, 'big.part');
    const content = Buffer.alloc(2500, 'abcdefghij');
    fs.writeFileSync(file, content);
    await storage.put('protected/2026/01/v.mp4', { filePath: file }, 'video/mp4');
    expect(log.filter((l) => l.includes('partNumber'))).toHaveLength(3);
    const object = await storage.get('protected/2026/01/v.mp4');
    expect(object!.contentType).toBe('video/mp4');
    expect(Buffer.from(await new Response(object!.body).arrayBuffer()).equals(content)).toBe(true);
  });

  it('reports the store refusing (for example a wrong secret)', async () => {
    const { port } = server.address() as AddressInfo;
    const wrong = new S3Storage({
      ...credentials,
      secretAccessKey: 'wrong',
      endpoint: `http://127.0.0.1:${port}`,
      bucket: 'media',
    });
    const error = await wrong
      .put('images/x.png', new Uint8Array([1]), 'image/png')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(S3Error);
    expect((error as S3Error).message).toContain('403 SignatureDoesNotMatch');
  });

  it('lists the bucket page by page, signing each request', async () => {
    const paged = new S3Storage({
      ...credentials,
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      bucket: 'media',
      listPageSize: 2,
    });
    const keys = ['demo/a.jpg', 'demo/b.jpg', 'images/c.png', 'images/d.png', 'protected/e.mp3'];
    for (const key of keys) await paged.put(key, new Uint8Array([1]), 'image/png');
    const before = log.length;
    const listed: string[] = [];
    for await (const key of paged.list()) listed.push(key);
    expect(listed).toEqual(expect.arrayContaining(keys));
    expect(new Set(listed).size).toBe(listed.length);
    const pages = log.slice(before);
    expect(pages.length).toBe(Math.ceil(listed.length / 2));
    expect(pages.slice(1).every((line) => line.includes('continuation-token='))).toBe(true);
  });

  it('checks keys before sending anything', async () => {
    const before = log.length;
    await expect(storage.get('../etc/passwd')).rejects.toThrow('不正な保存キー');
    expect(log.length).toBe(before);
  });
});
