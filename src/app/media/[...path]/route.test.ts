import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signMediaUrl } from '@/server/platform/security/signing';
import { getStorage } from '@/server/platform/storage/storage';
import { sample } from '@test-support/media-samples';
import { GET, HEAD } from './route';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-media-route-'));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const key = 'protected/2026/01/0123456789abcdef0123456789abcdef.mp4';
const video = sample('mp4');

function call(url: string, headers: Record<string, string> = {}, handler = GET, method = 'GET') {
  const request = new Request(`http://localhost${url}`, { method, headers });
  const segments = new URL(request.url).pathname.split('/').slice(2);
  return handler(request, { params: Promise.resolve({ path: segments }) });
}
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

beforeAll(async () => {
  await getStorage().put(key, video, 'video/mp4');
  await getStorage().put('images/2026/01/a.png', sample('png'), 'image/png');
});

describe('GET /media/[...path]', () => {
  it('serves protected media with a valid signature, privately and only until it expires', async () => {
    const res = await call(signMediaUrl(key, { expiresInSeconds: 600 }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=(600|599)$/);
    expect(await bytesOf(res)).toEqual(video);
  });

  it('answers ranges (206) for seeking, and 304 to a matching ETag', async () => {
    const url = signMediaUrl(`/media/${key}`, { expiresInSeconds: 600 });
    const res = await call(url, { range: 'bytes=100-199' });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-199/${video.length}`);
    expect(await bytesOf(res)).toEqual(video.subarray(100, 200));

    const head = await call(url, {}, HEAD, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    const again = await call(url, { 'if-none-match': head.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('answers 403 with a Japanese message to expired, altered or missing signatures', async () => {
    const past = new Date(Date.now() - 3_600_000);
    const expired = await call(signMediaUrl(key, { expiresInSeconds: 60, now: past }));
    expect(expired.status).toBe(403);
    expect((await expired.json()) as unknown).toEqual({
      message: '再生用リンクの有効期限が切れています。ページを再読み込みしてください。',
    });

    const good = signMediaUrl(key, { expiresInSeconds: 600 });
    const sig = new URL(good, 'http://x').searchParams.get('sig')!;
    const tamperedSig = good.replace(sig, (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
    const exp = new URL(good, 'http://x').searchParams.get('exp')!;
    const tamperedExp = good.replace(`exp=${exp}`, `exp=${Number(exp) + 86_400}`);
    const otherFile = good.replace('0123456789abcdef', 'fedcba9876543210');
    for (const url of [
      tamperedSig,
      tamperedExp,
      otherFile,
      `/media/${key}`,
      `/media/${key}?exp=${exp}`,
    ]) {
      const res = await call(url);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { message: string }).message).toContain('権限がない');
    }
  });

  it('answers 404 for anything outside protected/, bad paths and missing files', async () => {
    const missing = signMediaUrl('protected/2026/01/missing.mp4', { expiresInSeconds: 600 });
    expect((await call(missing)).status).toBe(404);
    for (const segments of [
      ['images', '2026', '01', 'a.png'],
      ['protected', '..', 'images', '2026', '01', 'a.png'],
      ['protected', '%2e%2e', 'app-secret'],
      ['..', 'app-secret'],
      ['protected', 'a.mp4\0'],
      ['protected', 'notes.txt'],
    ]) {
      const request = new Request('http://localhost/media/x?exp=1&sig=x');
      const res = await GET(request, { params: Promise.resolve({ path: segments }) });
      expect(res.status).toBe(404);
    }
  });
});
