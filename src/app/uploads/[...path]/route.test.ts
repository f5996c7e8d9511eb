import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStorage } from '@/server/platform/storage/storage';
import { sample } from '@test-support/media-samples';
import { GET, HEAD } from './route';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-uploads-route-'));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const imageKey = 'images/2026/01/0123456789abcdef0123456789abcdef.png';
const png = sample('png');
const mp3 = sample('mp3');

function call(
  handler: typeof GET,
  segments: string[],
  headers: Record<string, string> = {},
  method = 'GET',
) {
  const request = new Request(`http://localhost/uploads/${segments.join('/')}`, {
    method,
    headers,
  });
  return handler(request, { params: Promise.resolve({ path: segments }) });
}
const get = (key: string, headers: Record<string, string> = {}) =>
  call(GET, key.split('/'), headers);
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

beforeAll(async () => {
  const storage = getStorage();
  await storage.put(imageKey, png, 'image/png');
  await storage.put('demo/intro.mp3', mp3, 'audio/mpeg');
  await storage.put('demo/cover.a1b2c3d4e5.jpg', sample('jpeg'), 'image/jpeg');
  await storage.put('protected/2026/01/paid.mp3', mp3, 'audio/mpeg');
  await storage.put('images/2026/01/not-an-image.mp3', mp3, 'audio/mpeg');
  fs.writeFileSync(path.join(dataDir, 'uploads', 'images', 'evil.svg'), '<svg onload="alert(1)"/>');
});

describe('GET /uploads/[...path]', () => {
  it('serves an uploaded image with its type, validators and a year of immutable caching', async () => {
    const res = await get(imageKey);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-length')).toBe(String(png.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(Date.parse(res.headers.get('last-modified')!)).not.toBeNaN();
    expect(await bytesOf(res)).toEqual(png);
  });

  it('serves demo media; names without a hash are cached for a shorter time', async () => {
    const res = await get('demo/intro.mp3');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/mpeg');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await bytesOf(res)).toEqual(mp3);
    const hashed = await get('demo/cover.a1b2c3d4e5.jpg');
    expect(hashed.headers.get('cache-control')).toContain('immutable');
  });

  it('answers a byte range with 206 and Content-Range', async () => {
    const res = await get('demo/intro.mp3', { range: 'bytes=10-19' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 10-19/${mp3.length}`);
    expect(res.headers.get('content-length')).toBe('10');
    expect(await bytesOf(res)).toEqual(mp3.subarray(10, 20));

    const tail = await get('demo/intro.mp3', { range: 'bytes=-8' });
    expect(tail.status).toBe(206);
    expect(tail.headers.get('content-range')).toBe(
      `bytes ${mp3.length - 8}-${mp3.length - 1}/${mp3.length}`,
    );
    expect(await bytesOf(tail)).toEqual(mp3.subarray(-8));

    const open = await get('demo/intro.mp3', { range: 'bytes=280-' });
    expect(await bytesOf(open)).toEqual(mp3.subarray(280));

    const beyond = await get('demo/intro.mp3', { range: 'bytes=999999-' });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${mp3.length}`);

    // Several ranges, or a stale If-Range: the whole file.
    expect((await get('demo/intro.mp3', { range: 'bytes=0-1,5-6' })).status).toBe(200);
    expect((await get('demo/intro.mp3', { range: 'bytes=0-1', 'if-range': '"old"' })).status).toBe(
      200,
    );
  });

  it('answers 304 to a matching If-None-Match or a recent If-Modified-Since', async () => {
    const first = await get(imageKey);
    const etag = first.headers.get('etag')!;
    await first.body?.cancel();
    const again = await get(imageKey, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBeNull();
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toContain('immutable');
    expect((await get(imageKey, { 'if-none-match': `"x", W/${etag}` })).status).toBe(304);
    const changed = await get(imageKey, { 'if-none-match': '"something-else"' });
    expect(changed.status).toBe(200);
    await changed.body?.cancel();
    const since = await get(imageKey, {
      'if-modified-since': new Date(Date.now() + 60_000).toUTCString(),
    });
    expect(since.status).toBe(304);
  });

  it('answers HEAD with the headers and no body', async () => {
    const res = await call(HEAD, imageKey.split('/'), {}, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(png.length));
    expect(res.body).toBeNull();
  });

  it.each([
    ['a missing file', ['images', '2026', '01', 'missing.png']],
    ['protected media', ['protected', '2026', '01', 'paid.mp3']],
    ['a non-image under images/', ['images', '2026', '01', 'not-an-image.mp3']],
    ['SVG', ['images', 'evil.svg']],
    ['parent segments', ['..', 'app-secret']],
    ['parent segments inside', ['images', '..', '..', 'app-secret']],
    ['encoded parent segments', ['images', '%2e%2e', '%2e%2e', 'app-secret']],
    ['an encoded slash', ['images', '..%2f..%2fapp-secret']],
    ['an absolute path', ['/etc/passwd']],
    ['a NUL byte', ['images', '2026', '01', '0123456789abcdef0123456789abcdef.png\0.jpg']],
    ['the temporary folder', ['.tmp', 'x.part']],
    ['a backslash', ['images\\..\\..\\app-secret']],
    ['nothing', []],
  ])('answers 404 for %s', async (_, segments) => {
    const res = await call(GET, segments);
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toEqual({ message: 'ファイルが見つかりません。' });
  });
});
