import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { type Db, queryRows } from '@/server/platform/db/client';
import { auditEvents } from '@/server/platform/db/schema';
import { decodeFlash } from '@/lib/http/flash';
import { FileSystemStorage } from '@/server/platform/storage/storage';
import { sample } from '@test-support/media-samples';
import { transferHandlers } from './http';
import {
  NOT_ADMINS,
  SITE,
  expectBare404 as expectBare404Answer,
  siteHeaders,
  testDataDir,
  testDatabase,
  testViewer,
  usersByRole,
} from '@test-support/route-tests';
import { BUSY_MESSAGE, beginTransfer, currentTransfer, resetTransferState } from './progress';
import { fileStampJa } from '@/lib/format';
import { createContent } from '@/server/services/cms/writes';

/**
 * The routes of /admin/transfer on real databases: anyone but an admin (anonymous, a member,
 * an editor) gets the same bare 404 from every route and changes nothing; an admin downloads
 * the archive, imports it into an empty instance, is refused (with the reason) on one that has
 * content, and bad input gets Japanese field errors and changes nothing.
 */

const tmp = testDataDir('transfer-http', { secret: false });
process.env.DATA_DIR = path.join(tmp, 'data');

const users = usersByRole('u-');
type Who = keyof typeof users;

const full = testDatabase({ global: false });
const empty = testDatabase({ global: false });
/** Stays empty: the busy refusal must not meet the emptiness check first. */
const untouched = testDatabase({ global: false });
const storage = new FileSystemStorage(path.join(tmp, 'uploads'));
const emptyStorage = new FileSystemStorage(path.join(tmp, 'empty-uploads'));
let archive: Uint8Array<ArrayBuffer> = new Uint8Array();

const handlersFor = (db: () => Db, store: FileSystemStorage) =>
  transferHandlers({
    viewer: testViewer(users),
    db: () => Promise.resolve(db()),
    storage: () => store,
  });
const onFull = handlersFor(() => full.db, storage);
const onEmpty = handlersFor(() => empty.db, emptyStorage);

function request(
  url: string,
  who: Who | null,
  init: {
    method?: string;
    body?: BodyInit;
    plain?: boolean;
    headers?: Record<string, string>;
  } = {},
): Request {
  return new Request(`${SITE}${url}`, {
    method: init.method ?? 'POST',
    headers: { ...siteHeaders({ who, plain: init.plain }), ...init.headers },
    body: init.body,
  });
}

const archiveForm = (bytes: Uint8Array<ArrayBuffer> | null, confirm: boolean) => {
  const form = new FormData();
  if (confirm) form.append('confirm', 'on');
  if (bytes)
    form.append('archive', new File([bytes], 'export.tar.gz', { type: 'application/gzip' }));
  return form;
};

const microCmsForm = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  return form;
};

/** An admin's well-formed start of a microCMS import. */
const microCmsStart = () =>
  request('/api/admin/transfer/microcms', 'admin', {
    body: microCmsForm({
      baseUrl: 'https://example.microcms.io/api/v1',
      apiKey: 'secret-key-123',
      confirm: 'on',
    }),
  });

const counts = async (db: Db) =>
  (
    await queryRows<{ contents: number; media: number; audits: number }>(
      db,
      sql`SELECT (SELECT count(*)::int FROM cms_contents) AS contents, (SELECT count(*)::int FROM cms_media) AS media, (SELECT count(*)::int FROM audit_events) AS audits`,
    )
  )[0]!;

function expectBare404(response: Response): void {
  expectBare404Answer(response);
  expect(response.headers.get('content-disposition')).toBeNull();
}

beforeAll(async () => {
  await createContent(full.db, findEndpoint('tags')!, {
    id: 'tag-1',
    body: { name: '建築' },
    status: 'publish',
  });
  const key = 'images/2026/04/00112233445566778899aabbccddeeff.png';
  await storage.put(key, sample('png'), 'image/png');
  await createContent(full.db, findEndpoint('posts')!, {
    id: 'post-1',
    body: { title: '記事', coverImage: { url: `/uploads/${key}` }, tags: ['tag-1'] },
    status: 'publish',
  });
});

beforeEach(() => resetTransferState());

describe('anyone but an admin', () => {
  it.each(NOT_ADMINS)('gets a bare 404 from every route and changes nothing (%s)', async (who) => {
    const before = await counts(empty.db);
    const fullBefore = await counts(full.db);
    expectBare404(
      await onFull.exportArchive(request('/api/admin/transfer/export', who, { method: 'GET' })),
    );
    expectBare404(
      await onFull.status(request('/api/admin/transfer/status', who, { method: 'GET' })),
    );
    expectBare404(
      await onEmpty.importArchive(
        request('/api/admin/transfer/import', who, { body: archiveForm(sample('png'), true) }),
      ),
    );
    expectBare404(
      await onEmpty.importMicroCms(
        request('/api/admin/transfer/microcms', who, {
          body: microCmsForm({
            baseUrl: 'https://x.microcms.io/api/v1',
            apiKey: 'k',
            confirm: 'on',
          }),
        }),
      ),
    );
    // A plain post (no JavaScript) gets the same: no redirect, no one-time message.
    expectBare404(
      await onEmpty.importArchive(
        request('/api/admin/transfer/import', who, {
          body: archiveForm(sample('png'), true),
          plain: true,
        }),
      ),
    );
    expect(await counts(empty.db)).toEqual(before);
    expect(await counts(full.db)).toEqual(fullBefore);
    expect(currentTransfer()).toBeNull();
  });
});

describe('an admin', () => {
  it('downloads the whole archive as an attachment, audited', async () => {
    const started = fileStampJa(new Date());
    const response = await onFull.exportArchive(
      request('/api/admin/transfer/export', 'admin', { method: 'GET' }),
    );
    const ended = fileStampJa(new Date());
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/gzip');
    // Named by the time in Japan (a minute may turn during the export).
    expect(
      [started, ended].map((at) => `attachment; filename="axis-content-${at}.tar.gz"`),
    ).toContain(response.headers.get('content-disposition'));
    archive = new Uint8Array(await response.arrayBuffer());
    const tar = gunzipSync(archive);
    expect(tar.subarray(0, 13).toString()).toBe('manifest.json');
    const audits = await full.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'content-exported'));
    expect(audits).toHaveLength(1);
    expect(audits[0]!.actor).toBe('user:u-admin');
    expect(audits[0]!.detail).toMatchObject({ contents: 2, files: 1 });
  });

  it('is told what is in the way when the instance has content, and nothing changes', async () => {
    const before = await counts(full.db);
    const response = await onFull.importArchive(
      request('/api/admin/transfer/import', 'admin', { body: archiveForm(archive, true) }),
    );
    expect(response.status).toBe(409);
    const body = (await response.json()) as { message: string };
    expect(body.message).toBe(
      'この環境にはすでにコンテンツがあるため取り込めません（記事 1 件、タグ 1 件）。取り込みは空の環境にだけ行えます。既存のデータと混ぜることはできません。',
    );
    expect(await counts(full.db)).toEqual(before);
  });

  it('must confirm, and must send a file: field errors, nothing changed', async () => {
    const fieldErrorsOf = async (body: FormData) => {
      const response = await onEmpty.importArchive(
        request('/api/admin/transfer/import', 'admin', { body }),
      );
      expect(response.status).toBe(400);
      return ((await response.json()) as { fieldErrors: Record<string, string> }).fieldErrors;
    };
    expect(await fieldErrorsOf(archiveForm(archive, false))).toEqual({
      confirm: '取り込み先が空であることを確認し、チェックを入れてください。',
    });
    expect(await fieldErrorsOf(archiveForm(null, true))).toEqual({
      archive: '取り込むアーカイブ (.tar.gz) を選んでください。',
    });
    let response = await onEmpty.importArchive(
      request('/api/admin/transfer/import', 'admin', {
        body: 'not multipart',
        headers: { 'content-type': 'text/plain' },
      }),
    );
    expect(response.status).toBe(400);
    // A broken archive is a 400 with the reason, not a 500.
    response = await onEmpty.importArchive(
      request('/api/admin/transfer/import', 'admin', {
        body: archiveForm(archive.subarray(0, 200), true),
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/アーカイブ/);
    expect((await counts(empty.db)).contents).toBe(0);
  });

  it('imports the archive into an empty instance (plain post: back to the page), audited', async () => {
    const response = await onEmpty.importArchive(
      request('/api/admin/transfer/import', 'admin', {
        body: archiveForm(archive, true),
        plain: true,
      }),
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/admin/transfer#transfer-status');
    expect(await counts(empty.db)).toMatchObject({ contents: 2 });
    const status = currentTransfer();
    expect(status?.phase).toBe('done');
    expect(status?.result?.contents).toEqual({ posts: 1, tags: 1 });
    const [audit] = await empty.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'content-imported'));
    expect(audit?.actor).toBe('user:u-admin');
    expect(audit?.detail).toMatchObject({ source: 'archive', contents: 2, files: 1 });

    const statusAnswer = await onEmpty.status(
      request('/api/admin/transfer/status', 'admin', { method: 'GET' }),
    );
    expect(statusAnswer.status).toBe(200);
    expect(((await statusAnswer.json()) as { status: { phase: string } }).status.phase).toBe(
      'done',
    );
  });

  it('gets field errors for a bad microCMS form, and the key never comes back', async () => {
    const response = await onFull.importMicroCms(
      request('/api/admin/transfer/microcms', 'admin', {
        body: microCmsForm({ baseUrl: 'http://example.com/x?y', apiKey: 'secret-key-123' }),
        plain: true,
      }),
    );
    expect(response.status).toBe(303);
    const cookie = /axis_flash=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
    const flash = decodeFlash(cookie);
    expect(flash?.fieldErrors.baseUrl).toMatch(/microcms\.io\/api\/v1 の形で入力してください/);
    expect(flash?.fieldErrors.confirm).toBeDefined();
    expect(JSON.stringify(flash)).not.toContain('secret-key-123');

    const json = await onFull.importMicroCms(
      request('/api/admin/transfer/microcms', 'admin', {
        body: '{"baseUrl": ',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expect(json.status).toBe(400);
  });

  it('is refused a microCMS import into an instance with content, before anything starts', async () => {
    const response = await onFull.importMicroCms(microCmsStart());
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toMatch(
      /すでにコンテンツがあるため/,
    );
    expect(currentTransfer()).toBeNull();
  });

  it('is told another import runs, before a microCMS import starts (409)', async () => {
    const running = beginTransfer('archive', 'other.tar.gz');
    try {
      const response = await handlersFor(() => untouched.db, emptyStorage).importMicroCms(
        microCmsStart(),
      );
      expect(response.status).toBe(409);
      expect(await response.json()).toMatchObject({ ok: false, message: BUSY_MESSAGE });
      expect(currentTransfer()?.id).toBe(running.id);
    } finally {
      resetTransferState();
    }
  });

  it('answers a failed export with a 500 and a Japanese message, the cause only logged', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const broken = Object.create(storage) as FileSystemStorage;
    broken.head = () => Promise.reject(new Error('disk gone'));
    try {
      const response = await handlersFor(() => full.db, broken).exportArchive(
        request('/api/admin/transfer/export', 'admin', { method: 'GET' }),
      );
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({
        ok: false,
        message: '書き出しに失敗しました。時間をおいてもう一度お試しください。',
      });
      expect(log).toHaveBeenCalledWith('[transfer] export failed:', expect.any(Error));
    } finally {
      log.mockRestore();
    }
  });
});
