import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createApiKey } from '@/server/services/cms/api-keys';
import { cmsApiKeys, cmsMedia } from '@/server/platform/db/schema';
import { testDataDir, testDatabase } from '@test-support/route-tests';
import { signMediaUrl } from '@/server/platform/security/signing';
import { type SampleName, sample } from '@test-support/media-samples';
import { handleMediaUpload } from '@/server/features/media/api-upload';
import { GET as getMedia } from '../../media/[...path]/route';
import { GET as getUpload } from '../../uploads/[...path]/route';
import { POST } from './route';

const dataDir = testDataDir('media-upload', { secret: false });
process.env.CMS_RATE_LIMIT_WRITE = '100000'; // many uploads in a second

const database = testDatabase();
let key: string;
let readOnlyKey: string;

beforeAll(async () => {
  key = (await createApiKey(database.db, { name: 'uploader', permissions: ['GET', 'POST'] })).key;
  readOnlyKey = (await createApiKey(database.db, { name: 'reader', permissions: ['GET'] })).key;
});

function uploadRequest(
  file: Uint8Array<ArrayBuffer> | null,
  options: { name?: string; type?: string; apiKey?: string | null; field?: string } = {},
) {
  const form = new FormData();
  form.append('note', 'ignored');
  if (file) {
    form.append(
      options.field ?? 'file',
      new Blob([file], { type: options.type ?? 'application/octet-stream' }),
      options.name ?? 'upload.bin',
    );
  }
  const headers: Record<string, string> = {};
  const apiKey = options.apiKey === undefined ? key : options.apiKey;
  if (apiKey) headers['x-microcms-api-key'] = apiKey;
  return new Request('http://localhost/api/media', { method: 'POST', headers, body: form });
}

type Answer = {
  url: string;
  width?: number;
  height?: number;
  fileSize: number;
  contentType: string;
};
const stored = (url: string) =>
  path.join(dataDir, 'uploads', url.replace(/^\/(uploads|media)\//, ''));
const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]) : [];

describe('POST /api/media', () => {
  it('stores an image under images/YYYY/MM with a random name and answers its public URL', async () => {
    const png = sample('png');
    // 01:00 on 1 December in Japan, still November in UTC: the folder is Japan's month.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-30T16:00:00Z') });
    const res = await POST(uploadRequest(png, { name: 'photo.png', type: 'image/png' })).finally(
      () => vi.useRealTimers(),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as Answer;
    expect(body.url).toMatch(/^\/uploads\/images\/2026\/12\/[0-9a-f]{32}\.png$/);
    expect(body).toEqual({
      url: body.url,
      width: 3,
      height: 2,
      fileSize: png.length,
      contentType: 'image/png',
    });
    expect(new Uint8Array(fs.readFileSync(stored(body.url)))).toEqual(png);

    const segments = body.url.split('/').slice(2);
    const served = await getUpload(new Request(`http://localhost${body.url}`), {
      params: Promise.resolve({ path: segments }),
    });
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
  });

  it('registers the upload in the media library, the key as uploader and no alt text', async () => {
    const res = await POST(uploadRequest(sample('gif'), { name: 'anim.gif', type: 'image/gif' }));
    expect(res.status).toBe(201);
    const body = (await res.json()) as Answer;
    const [row] = await database.db.select().from(cmsMedia).where(eq(cmsMedia.url, body.url));
    const [uploader] = await database.db
      .select({ id: cmsApiKeys.id })
      .from(cmsApiKeys)
      .where(eq(cmsApiKeys.name, 'uploader'));
    expect(row).toMatchObject({
      kind: 'image',
      contentType: 'image/gif',
      fileSize: sample('gif').length,
      width: 3,
      height: 2,
      alt: '',
      filename: 'anim.gif',
      uploadedBy: `key:${uploader!.id}`,
    });
    // A refused upload leaves no row.
    const before = (await database.db.select().from(cmsMedia)).length;
    await POST(uploadRequest(new TextEncoder().encode('<!doctype html>')));
    expect(await database.db.select().from(cmsMedia)).toHaveLength(before);
  });

  it('decides the type from the bytes, not from the name or the declared type', async () => {
    const res = await POST(
      uploadRequest(sample('jpeg'), { name: 'logo.svg', type: 'image/svg+xml' }),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as Answer;
    expect(body.url).toMatch(/\.jpg$/);
    expect(body.contentType).toBe('image/jpeg');
  });

  it.each<[SampleName, string, string]>([
    ['mp3', 'audio/mpeg', 'mp3'],
    ['m4a', 'audio/mp4', 'm4a'],
    ['wav', 'audio/wav', 'wav'],
    ['oggOpus', 'audio/ogg', 'ogg'],
    ['mp4', 'video/mp4', 'mp4'],
    ['webm', 'video/webm', 'webm'],
  ])('stores %s under protected/, reachable only through a signed URL', async (name, type, ext) => {
    const res = await POST(uploadRequest(sample(name)));
    expect(res.status).toBe(201);
    const body = (await res.json()) as Answer;
    expect(body.contentType).toBe(type);
    expect(body.width).toBeUndefined();
    expect(body.url).toMatch(new RegExp(`^/media/protected/\\d{4}/\\d{2}/[0-9a-f]{32}\\.${ext}$`));
    const segments = body.url.split('/').slice(2);

    const asPublic = await getUpload(new Request('http://localhost/uploads/x'), {
      params: Promise.resolve({ path: segments }),
    });
    expect(asPublic.status).toBe(404);
    const unsigned = await getMedia(new Request(`http://localhost${body.url}`), {
      params: Promise.resolve({ path: segments }),
    });
    expect(unsigned.status).toBe(403);
    const signed = signMediaUrl(body.url, { expiresInSeconds: 60 });
    const ok = await getMedia(new Request(`http://localhost${signed}`), {
      params: Promise.resolve({ path: segments }),
    });
    expect(ok.status).toBe(200);
    expect(new Uint8Array(await ok.arrayBuffer())).toEqual(sample(name));
  });

  it.each([
    [
      'SVG',
      new TextEncoder().encode(
        '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      ),
      'SVG',
    ],
    [
      'HTML named .jpg',
      new TextEncoder().encode('<!doctype html><script>alert(1)</script>'),
      'HTML',
    ],
    ['QuickTime', sample('mov'), 'QuickTime (MOV)'],
  ])(
    'refuses %s with 400 naming the detected type, and stores nothing',
    async (_, bytes, detected) => {
      const before = filesUnder(path.join(dataDir, 'uploads')).length;
      const res = await POST(uploadRequest(bytes, { name: 'photo.jpg', type: 'image/jpeg' }));
      expect(res.status).toBe(400);
      const { message } = (await res.json()) as { message: string };
      expect(message).toContain(`検出された形式: ${detected}`);
      expect(filesUnder(path.join(dataDir, 'uploads')).length).toBe(before);
    },
  );

  it('refuses a truncated file, an empty one and a request without a file', async () => {
    const cut = await POST(uploadRequest(sample('png').slice(0, 20)));
    expect(cut.status).toBe(400);
    expect(((await cut.json()) as { message: string }).message).toContain('途中で切れています');

    const empty = await POST(uploadRequest(new Uint8Array(0)));
    expect(empty.status).toBe(400);

    const none = await POST(uploadRequest(sample('png'), { field: 'image' }));
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ message: 'file フィールドにファイルを指定してください。' });

    const json = await POST(
      new Request('http://localhost/api/media', {
        method: 'POST',
        headers: { 'x-microcms-api-key': key, 'content-type': 'application/json' },
        body: '{"file":"x"}',
      }),
    );
    expect(json.status).toBe(400);
  });

  it('answers 401 without a valid key and 400 to a key without POST, as the content API does', async () => {
    for (const apiKey of [null, 'cms_wrong']) {
      const res = await POST(uploadRequest(sample('png'), { apiKey }));
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'X-MICROCMS-API-KEY header is invalid.' });
    }
    const res = await POST(uploadRequest(sample('png'), { apiKey: readOnlyKey }));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'POST is forbidden.' });
  });

  it('answers 413 to a file over the limit of its kind', async () => {
    const png = sample('png');
    const res = await handleMediaUpload(uploadRequest(png), {
      db: database.db,
      limits: { image: 50 },
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toContain('画像は50 バイトまで');
    // A declared length far over every limit is refused before reading.
    const declared = await handleMediaUpload(
      new Request('http://localhost/api/media', {
        method: 'POST',
        headers: {
          'x-microcms-api-key': key,
          'content-type': 'multipart/form-data; boundary=b',
          'content-length': String(3 * 1024 ** 3),
        },
        body: '--b--',
      }),
      { db: database.db },
    );
    expect(declared.status).toBe(413);
  });

  /**
   * An upload that never ends: the part's head with `first` bytes of the file, then `filler`
   * for ever; `sent.bytes` counts what the handler pulled.
   */
  function endlessUpload(filename: string, first: Uint8Array, filler: Uint8Array) {
    const boundary = 'streamboundary';
    const start = new Uint8Array([
      ...new TextEncoder().encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`,
      ),
      ...first,
    ]);
    const sent = { bytes: 0 };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = sent.bytes === 0 ? start : filler;
        sent.bytes += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const request = new Request('http://localhost/api/media', {
      method: 'POST',
      headers: {
        'x-microcms-api-key': key,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: 'half',
    } as RequestInit);
    return { request, sent };
  }

  it('stops reading a too-large stream early and leaves no temporary file', async () => {
    const { request, sent } = endlessUpload('v.mp4', sample('mp4'), new Uint8Array(64 * 1024));
    const res = await handleMediaUpload(request, {
      db: database.db,
      limits: { video: 1024 * 1024 },
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as { message: string }).message).toContain('動画は1 MBまで');
    expect(sent.bytes).toBeLessThan(2 * 1024 * 1024);
    expect(filesUnder(path.join(dataDir, 'tmp', 'uploads'))).toEqual([]);
  });

  it('refuses an unsupported type as soon as its first bytes arrive', async () => {
    const { request, sent } = endlessUpload(
      'a.pdf',
      new TextEncoder().encode('%PDF-1.7\n'),
      new Uint8Array(64 * 1024).fill(0x20),
    );
    const res = await handleMediaUpload(request, { db: database.db });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toContain('PDF');
    expect(sent.bytes).toBeLessThan(512 * 1024);
    expect(filesUnder(path.join(dataDir, 'tmp', 'uploads'))).toEqual([]);
  });
});
