import fs from 'node:fs';
import path from 'node:path';
import type { Role } from '@/lib/identity/roles';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ALT_REQUIRED_MESSAGE } from '@/lib/media/media-shared';
import { auditEvents, cmsContents, cmsMedia } from '@/server/platform/db/schema';
import { decodeFlash } from '@/lib/http/flash';
import { sample } from '@test-support/media-samples';
import { FileSystemStorage } from '@/server/platform/storage/storage';
import { BAD_HEADER_MESSAGE, STALLED_MESSAGE } from '@/server/platform/storage/multipart';
import { BODY_IDLE_MS } from '@/server/platform/http/read-body';
import { mediaHandlers } from './http';
import { registerMedia } from './library';
import {
  SITE,
  expectBare404,
  formPost,
  roleRouteTests,
  siteHeaders,
} from '@test-support/route-tests';

/**
 * The routes of the media library (src/app/api/admin/media/**) on a real database and a real
 * file storage: anyone but staff gets a bare 404 from each and changes nothing; editors and
 * admins upload (alt text required for images), list, edit alt text and delete (audited,
 * refused while used); malformed input is a Japanese 400 that writes nothing.
 */

const { dataDir, viewer, database } = roleRouteTests('admin-media-http', {
  prefix: 'u-',
  global: false,
});

const storageRoot = path.join(dataDir, 'uploads');
const storage = new FileSystemStorage(storageRoot);

type Who = Role;
beforeEach(async () => {
  await database.db.delete(cmsMedia);
  await database.db.delete(cmsContents);
  await database.db.delete(auditEvents);
  fs.rmSync(storageRoot, { recursive: true, force: true });
});

const routes = mediaHandlers({
  viewer,
  db: () => Promise.resolve(database.db),
  storage: () => storage,
});

type Call = { who: Who | null; plain?: boolean; origin?: string };

const headersFor = (call: Call) =>
  siteHeaders({ ...call, referer: call.plain ? '/admin/media' : undefined });

function uploadRequest(
  call: Call,
  file: Uint8Array<ArrayBuffer> | null,
  fields: Record<string, string> = {},
  name = 'photo.png',
): Request {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  if (file) body.append('file', new Blob([file]), name);
  return new Request(`${SITE}/api/admin/media`, {
    method: 'POST',
    headers: headersFor(call),
    body,
  });
}

const formRequest = (url: string, call: Call, fields: Record<string, string>) =>
  formPost(url, { ...call, fields, referer: call.plain ? '/admin/media' : undefined });

const listRequest = (call: Call, query = '') =>
  new Request(`${SITE}/api/admin/media${query}`, { headers: headersFor(call) });

const storedFiles = () =>
  fs.existsSync(storageRoot)
    ? (fs.readdirSync(storageRoot, { recursive: true }) as string[]).filter((f) =>
        fs.statSync(path.join(storageRoot, f)).isFile(),
      )
    : [];
const rows = () => database.db.select().from(cmsMedia);

async function storedImage(alt = '白い壁') {
  const url = '/uploads/images/2026/11/0123456789abcdef0123456789abcdef.png';
  await storage.put(
    'images/2026/11/0123456789abcdef0123456789abcdef.png',
    sample('png'),
    'image/png',
  );
  return registerMedia(database.db, {
    url,
    kind: 'image',
    contentType: 'image/png',
    fileSize: sample('png').length,
    width: 3,
    height: 2,
    alt,
    filename: 'wall.png',
  });
}

describe('anyone but staff', () => {
  it.each([null, 'member'] as const)(
    'gets a bare 404 from every route and changes nothing (%s)',
    async (who) => {
      const media = await storedImage();
      for (const plain of [false, true]) {
        expectBare404(
          await routes.upload(uploadRequest({ who, plain }, sample('png'), { alt: '説明' })),
        );
        expectBare404(await routes.list(listRequest({ who, plain })));
        expectBare404(
          await routes.alt(
            formRequest(`/api/admin/media/${media.id}/alt`, { who, plain }, { alt: '書き換え' }),
            media.id,
          ),
        );
        expectBare404(
          await routes.remove(
            formRequest(`/api/admin/media/${media.id}/delete`, { who, plain }, { confirm: 'yes' }),
            media.id,
          ),
        );
        // Junk is not looked at either: the same 404, not a 400 that confirms the route.
        expectBare404(await routes.list(listRequest({ who, plain }, '?kind=pdf')));
      }
      const after = await rows();
      expect(after.map((r) => [r.id, r.alt])).toEqual([[media.id, '白い壁']]);
      expect(storedFiles()).toHaveLength(1);
      expect(await database.db.select().from(auditEvents)).toEqual([]);
    },
  );
});

describe('upload', () => {
  it('stores an image with its alt text, registers it and answers the new file', async () => {
    const res = await routes.upload(
      uploadRequest({ who: 'editor' }, sample('png'), { alt: ' 白い\n壁 ' }, 'かべ.png'),
    );
    expect(res.status).toBe(201);
    const body = (await res.json()) as { ok: boolean; media: { id: string; url: string } };
    expect(body.ok).toBe(true);
    const [row] = await rows();
    expect(row).toMatchObject({
      id: body.media.id,
      url: body.media.url,
      kind: 'image',
      contentType: 'image/png',
      width: 3,
      height: 2,
      alt: '白い 壁',
      filename: 'かべ.png',
      uploadedBy: 'user:u-editor',
    });
    expect(storedFiles()).toHaveLength(1);
  });

  it('refuses an image without alt text before storing anything', async () => {
    const res = await routes.upload(uploadRequest({ who: 'editor' }, sample('png'), { alt: '  ' }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      ok: false,
      fieldErrors: { alt: ALT_REQUIRED_MESSAGE },
    });
    expect(await rows()).toEqual([]);
    expect(storedFiles()).toEqual([]);
    expect(fs.readdirSync(path.join(dataDir, 'tmp', 'uploads'))).toEqual([]);
  });

  it('takes audio without alt text, and refuses a kind the picker did not ask for', async () => {
    const ok = await routes.upload(uploadRequest({ who: 'admin' }, sample('mp3'), {}, 'talk.mp3'));
    expect(ok.status).toBe(201);
    expect((await rows())[0]).toMatchObject({ kind: 'audio', alt: '', uploadedBy: 'user:u-admin' });

    const wrong = await routes.upload(
      uploadRequest({ who: 'admin' }, sample('mp4'), { kind: 'audio' }, 'clip.mp4'),
    );
    expect(wrong.status).toBe(400);
    const answer = (await wrong.json()) as { fieldErrors: { file: string } };
    expect(answer.fieldErrors.file).toContain('音声のファイルを選んでください');
    expect(await rows()).toHaveLength(1);
  });

  it('refuses a wrong type with the storage module’s message, and a request without a file', async () => {
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    const res = await routes.upload(uploadRequest({ who: 'editor' }, svg, { alt: 'ロゴ' }));
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { fieldErrors: { file: string } };
    expect(answer.fieldErrors.file).toContain('検出された形式: SVG');

    const none = await routes.upload(uploadRequest({ who: 'editor' }, null, { alt: 'x' }));
    expect(none.status).toBe(400);
    const json = await routes.upload(
      new Request(`${SITE}/api/admin/media`, {
        method: 'POST',
        headers: { ...headersFor({ who: 'editor' }), 'content-type': 'application/json' },
        body: '{"file":"x"}',
      }),
    );
    expect(json.status).toBe(400);
    expect(await rows()).toEqual([]);
    expect(storedFiles()).toEqual([]);
  });

  it('refuses a file over its kind’s limit with a 413 about the file', async () => {
    const small = mediaHandlers({
      viewer,
      db: () => Promise.resolve(database.db),
      storage: () => storage,
      limits: { image: 16 },
    });
    const res = await small.upload(uploadRequest({ who: 'editor' }, sample('png'), { alt: '壁' }));
    expect(res.status).toBe(413);
    const answer = (await res.json()) as { message: string; fieldErrors: { file: string } };
    expect(answer.fieldErrors).toEqual({ file: answer.message });
    expect(await rows()).toEqual([]);
  });

  it('answers a storage failure with a 500 about no field, the cause only logged', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = Object.create(storage) as FileSystemStorage;
    broken.put = () => Promise.reject(new Error('disk full'));
    try {
      const res = await mediaHandlers({
        viewer,
        db: () => Promise.resolve(database.db),
        storage: () => broken,
      }).upload(uploadRequest({ who: 'editor' }, sample('png'), { alt: '壁' }));
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        ok: false,
        message: 'アップロードを保存できませんでした。時間をおいてもう一度お試しください。',
        fieldErrors: {},
      });
      expect(log).toHaveBeenCalledWith('[admin-media-upload] failed:', expect.any(Error));
    } finally {
      log.mockRestore();
    }
  });

  it('answers a plain post with 303: to the new file, or back with the errors', async () => {
    const refused = await routes.upload(
      uploadRequest({ who: 'editor', plain: true }, sample('png')),
    );
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/admin/media');
    const cookie = /axis_flash=([^;]+)/.exec(refused.headers.get('set-cookie') ?? '')?.[1];
    expect(decodeFlash(cookie)?.fieldErrors.alt).toBe(ALT_REQUIRED_MESSAGE);

    const done = await routes.upload(
      uploadRequest({ who: 'editor', plain: true }, sample('png'), { alt: '説明' }),
    );
    expect(done.status).toBe(303);
    const [row] = await rows();
    expect(done.headers.get('location')).toBe(`/admin/media/${row!.id}`);
  });

  it('offers the file the library already has instead of a copy, unless asked to keep both', async () => {
    const first = await routes.upload(
      uploadRequest({ who: 'editor' }, sample('png'), { alt: '表紙' }, 'cover.png'),
    );
    const { media } = (await first.json()) as { media: { id: string } };

    const again = await routes.upload(
      uploadRequest({ who: 'editor' }, sample('png'), { alt: '別の説明' }, 'cover-2.png'),
    );
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      ok: false,
      message: '同じ内容のファイルが「cover.png」としてライブラリにあります。',
      duplicate: { id: media.id, filename: 'cover.png', alt: '表紙' },
    });
    // Nothing new stored or registered.
    expect(storedFiles()).toHaveLength(1);
    expect(await rows()).toHaveLength(1);

    const plain = await routes.upload(
      uploadRequest({ who: 'editor', plain: true }, sample('png'), { alt: '説明' }),
    );
    expect(plain.status).toBe(303);
    const cookie = /axis_flash=([^;]+)/.exec(plain.headers.get('set-cookie') ?? '')?.[1];
    expect(decodeFlash(cookie)?.fieldErrors.duplicate).toContain(`/admin/media/${media.id}`);

    const kept = await routes.upload(
      uploadRequest({ who: 'editor' }, sample('png'), { alt: '別の説明', duplicate: 'keep' }),
    );
    expect(kept.status).toBe(201);
    expect(storedFiles()).toHaveLength(2);
    const hashes = (await rows()).map((r) => r.contentHash);
    expect(hashes[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(hashes[1]).toBe(hashes[0]);
  });

  describe('a body that is broken or stops arriving (decision 012)', () => {
    const partFiles = () => {
      const dir = path.join(dataDir, 'tmp', 'uploads');
      return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
    };
    const streamed = (body: ReadableStream<Uint8Array>) =>
      new Request(`${SITE}/api/admin/media`, {
        method: 'POST',
        headers: {
          ...headersFor({ who: 'editor' }),
          'content-type': 'multipart/form-data; boundary=fuzz',
        },
        body,
        duplex: 'half',
      } as RequestInit);
    /** `head`, then nothing more, the connection left open. */
    const stalledAfter = (head: string) => {
      let sent = false;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return new Promise<void>(() => undefined);
          sent = true;
          controller.enqueue(Buffer.from(head, 'latin1'));
        },
      });
    };
    const filePart = (name: string, filename: string, content: string) =>
      `--fuzz\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
      `Content-Type: image/png\r\n\r\n${content}\r\n`;

    it('answers broken part headers and a missing closing boundary with a 400 at once', async () => {
      // The fuzz run's request 742 (--seed 839133599): a CR LF inside a quoted file name, then
      // a file part, and the body ends without its closing boundary.
      const body =
        '--fuzz\r\nContent-Disposition: form-data; name="alt"\r\n\r\n<svg/>\r\n' +
        filePart('file', 'a\r\nb.png', '<svg/>') +
        '--fuzz\r\nContent-Disposition: form-data; name="archive"\r\n\r\nodd\r\n' +
        filePart('file', 'x.png', '\x89PNG\r\n\x1a\n' + 'x'.repeat(50));
      const res = await routes.upload(
        new Request(`${SITE}/api/admin/media`, {
          method: 'POST',
          headers: {
            ...headersFor({ who: 'editor' }),
            'content-type': 'multipart/form-data; boundary=fuzz',
          },
          body: Buffer.from(body, 'latin1'),
        }),
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        ok: false,
        message: BAD_HEADER_MESSAGE,
        fieldErrors: { file: BAD_HEADER_MESSAGE },
      });
      expect(partFiles()).toEqual([]);
      expect(await rows()).toEqual([]);
    });

    it('gives up on a body that stops arriving within the body timeout, leaving no file', async () => {
      for (const head of [
        filePart('file', 'a.png', '\x89PNG\r\n\x1a\n' + 'x'.repeat(50)), // inside the file
        '--fuzz\r\nContent-Disposition: form-data; name="alt"\r\n\r\n壁', // before it
      ]) {
        vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
        try {
          const answer = routes.upload(streamed(stalledAfter(head)));
          // The file part is being written to its temporary file.
          if (head.includes('filename'))
            while (partFiles().length === 0) await new Promise((r) => setImmediate(r));
          await vi.advanceTimersByTimeAsync(BODY_IDLE_MS);
          const res = await answer;
          expect(res.status).toBe(400);
          expect(await res.json()).toMatchObject({ ok: false, message: STALLED_MESSAGE });
        } finally {
          vi.useRealTimers();
        }
        expect(partFiles()).toEqual([]);
        expect(await rows()).toEqual([]);
      }
    });
  });

  it('refuses a post from another site', async () => {
    const res = await routes.upload(
      uploadRequest({ who: 'editor', origin: 'https://evil.example' }, sample('png'), { alt: 'x' }),
    );
    expect(res.status).toBe(403);
    expect(await rows()).toEqual([]);
  });
});

describe('list', () => {
  it('answers the picker’s JSON, filtered, and a Japanese 400 for bad input', async () => {
    const wall = await storedImage('白い壁');
    const res = await routes.list(listRequest({ who: 'editor' }, '?kind=image&q=%E7%99%BD'));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true, total: 1, page: 1, pageCount: 1 });
    // The picker asks for the file a field holds by its address, for its name.
    const byUrl = await routes.list(
      listRequest({ who: 'editor' }, `?url=${encodeURIComponent(wall.url)}`),
    );
    expect(await byUrl.json()).toMatchObject({ total: 1, items: [{ filename: 'wall.png' }] });
    const none = await routes.list(listRequest({ who: 'editor' }, '?kind=audio'));
    expect(await none.json()).toMatchObject({ total: 0, items: [] });

    const badKind = await routes.list(listRequest({ who: 'editor' }, '?kind=pdf'));
    expect(badKind.status).toBe(400);
    expect(await badKind.json()).toMatchObject({
      fieldErrors: { kind: '種類は「画像」「音声」「動画」から選んでください。' },
    });
    const badPage = await routes.list(listRequest({ who: 'admin' }, '?page=abc'));
    expect(badPage.status).toBe(400);
    expect(((await badPage.json()) as { fieldErrors: { page: string } }).fieldErrors.page).toBe(
      'ページ番号は半角数字で指定してください。',
    );
  });
});

describe('alt text', () => {
  it('saves it, and refuses empty (for an image), too long and unknown files', async () => {
    const media = await storedImage();
    const url = `/api/admin/media/${media.id}/alt`;
    const saved = await routes.alt(
      formRequest(url, { who: 'editor' }, { alt: '灰色の壁' }),
      media.id,
    );
    expect(saved.status).toBe(200);
    const empty = await routes.alt(formRequest(url, { who: 'editor' }, { alt: ' ' }), media.id);
    expect(empty.status).toBe(400);
    const long = await routes.alt(
      formRequest(url, { who: 'editor' }, { alt: 'あ'.repeat(251) }),
      media.id,
    );
    expect(long.status).toBe(400);
    expect(((await long.json()) as { fieldErrors: { alt: string } }).fieldErrors.alt).toContain(
      '250文字以内',
    );
    const missing = await routes.alt(formRequest(url, { who: 'editor' }, {}), media.id);
    expect(missing.status).toBe(400);
    expect((await rows())[0]?.alt).toBe('灰色の壁');

    expectBare404(await routes.alt(formRequest(url, { who: 'editor' }, { alt: 'x' }), 'not-an-id'));
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectBare404(await routes.alt(formRequest(url, { who: 'editor' }, { alt: 'x' }), unknown));
  });
});

describe('delete', () => {
  it('needs the confirmation, is refused while used, then deletes and audits', async () => {
    const media = await storedImage();
    const url = `/api/admin/media/${media.id}/delete`;
    const unconfirmed = await routes.remove(formRequest(url, { who: 'editor' }, {}), media.id);
    expect(unconfirmed.status).toBe(400);

    const now = new Date();
    await database.db.insert(cmsContents).values({
      endpoint: 'posts',
      id: 'uses-it',
      status: 'PUBLISH',
      data: { title: '使う記事', coverImage: { url: media.url } },
      createdAt: now,
      updatedAt: now,
    });
    const used = await routes.remove(
      formRequest(url, { who: 'editor' }, { confirm: 'yes' }),
      media.id,
    );
    expect(used.status).toBe(409);
    expect(((await used.json()) as { message: string }).message).toContain(
      '1件のコンテンツで使われているため削除できません',
    );
    expect(await rows()).toHaveLength(1);
    expect(storedFiles()).toHaveLength(1);

    await database.db.delete(cmsContents).where(eq(cmsContents.id, 'uses-it'));
    const plain = await routes.remove(
      formRequest(url, { who: 'editor', plain: true }, { confirm: 'yes' }),
      media.id,
    );
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe('/admin/media');
    expect(await rows()).toEqual([]);
    expect(storedFiles()).toEqual([]);
    const audits = await database.db.select().from(auditEvents);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: 'user:u-editor',
      action: 'media-deleted',
      target: `media:${media.id}`,
      detail: { url: media.url, filename: 'wall.png', kind: 'image' },
    });
  });
});
