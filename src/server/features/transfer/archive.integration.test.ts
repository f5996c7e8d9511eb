import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEndpoint } from '@/lib/cms/model';
import { copyDemoMedia, seedDemoContent } from '@/server/features/seed/seed';
import { type Database, queryRows } from '@/server/platform/db/client';
import { cmsContents, cmsMedia } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { FileSystemStorage } from '@/server/platform/storage/storage';
import { sample, samplePngRow } from '@test-support/media-samples';
import { prepareExport } from './export';
import { type ImportArchiveOptions, importArchive } from './import-archive';
import { tarStream } from '@/server/platform/archive/tar';
import { contentApiAnswers } from '@test-support/content-api-answers';
import { TransferError } from './errors';
import { testWorkDir } from '@test-support/route-tests';
import { createContent, updateContent } from '@/server/services/cms/writes';

const tmp = testWorkDir('transfer-archive');

const posts = findEndpoint('posts')!;

async function exportToFile(database: Database, storage: FileSystemStorage, file: string) {
  const prepared = await prepareExport(database.db, storage);
  await pipeline(prepared.stream, fs.createWriteStream(file));
  return prepared;
}

/** An archive made by hand, for the refusals. */
async function archiveOf(entries: { path: string; body: string | Uint8Array }[]) {
  const file = path.join(tmp, `hand-${Math.random().toString(36).slice(2)}.tar.gz`);
  const tarEntries = entries.map((e) => {
    const body = typeof e.body === 'string' ? Buffer.from(e.body) : e.body;
    return { path: e.path, size: body.length, body };
  });
  await pipeline(Readable.from(tarStream(tarEntries)), createGzip(), fs.createWriteStream(file));
  return file;
}

const manifest = (counts: Partial<Record<string, number>> = {}) =>
  JSON.stringify({
    format: 'axis-content-archive',
    version: 1,
    createdAt: new Date().toISOString(),
    appVersion: 'test',
    counts: { contents: 0, versions: 0, media: 0, files: 0, ...counts },
  });

describe('export and import of the whole content service', () => {
  let source: Database;
  let target: Database;
  const sourceStorage = new FileSystemStorage(path.join(tmp, 'source-uploads'));
  const targetStorage = new FileSystemStorage(path.join(tmp, 'target-uploads'));
  const uploadedKey = 'images/2026/05/0123456789abcdef0123456789abcdef.png';
  const archive = path.join(tmp, 'export.tar.gz');

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    await seedDemoContent(source.db);
    await copyDemoMedia(sourceStorage.root);
    // An uploaded image in the media library, used by a draft.
    await sourceStorage.put(uploadedKey, sample('png'), 'image/png');
    await source.db.insert(cmsMedia).values(samplePngRow(`/uploads/${uploadedKey}`));
    await createContent(source.db, posts, {
      id: 'draft-only',
      status: 'draft',
      body: {
        title: '下書きだけの記事',
        coverImage: { url: `/uploads/${uploadedKey}`, width: 3, height: 2, alt: '試験の画像' },
        body: `<p>本文</p><figure><img src="/uploads/${uploadedKey}" alt="図"></figure>`,
      },
    });
    // A published item with a scheduled, unpublished change.
    const [first] = await queryRows<{ id: string }>(
      source.db,
      sql`SELECT id FROM cms_contents WHERE endpoint = 'posts' AND status = 'PUBLISH' ORDER BY id LIMIT 1`,
    );
    await updateContent(
      source.db,
      posts,
      first!.id,
      { title: '予約した新しい見出し' },
      { draft: true },
    );
    await source.db
      .update(cmsContents)
      .set({ scheduledAt: new Date('2030-01-01T00:00:00.000Z'), updatedBy: 'user:someone' })
      .where(eq(cmsContents.id, first!.id));
    await source.db.execute(
      sql`INSERT INTO cms_versions (endpoint, content_id, data, status, action, actor) VALUES ('posts', ${first!.id}, '{"title":"予約した新しい見出し"}', 'PUBLISH_AND_DRAFT', 'schedule', 'user:someone')`,
    );
  });

  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('exports one archive with a manifest, the rows and the files', async () => {
    const prepared = await exportToFile(source, sourceStorage, archive);
    expect(prepared.missingFiles).toEqual([]);
    expect(prepared.manifest.counts.contents).toBeGreaterThan(50);
    expect(prepared.manifest.counts.versions).toBeGreaterThan(0);
    expect(prepared.manifest.counts.media).toBeGreaterThan(1);
    expect(prepared.manifest.counts.files).toBeGreaterThan(10);
    expect(prepared.manifest.endpoints?.posts).toBeGreaterThan(10);
    // The temporaries are gone once the archive has been read.
    expect(fs.readdirSync(path.join(tmp, 'data', 'tmp', 'transfer'))).toEqual([]);
  });

  it('refuses an archive into an instance that has content, naming what is there', async () => {
    const error = await importArchive(source.db, targetStorage, fs.createReadStream(archive)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransferError);
    expect((error as Error).message).toMatch(
      /すでにコンテンツがあるため取り込めません（記事 \d+ 件/,
    );
  });

  it('imports into an empty instance with the same content API answers and the same files', async () => {
    const summary = await importArchive(target.db, targetStorage, fs.createReadStream(archive));
    expect(summary.warnings).toEqual([]);
    expect(summary.contents.posts).toBeGreaterThan(10);
    const [versions] = await queryRows<{ n: number }>(
      source.db,
      sql`SELECT count(*)::int AS n FROM cms_versions`,
    );
    expect(summary.versions).toBe(versions!.n);

    const answers = await contentApiAnswers(target.db);
    expect(answers).toEqual(await contentApiAnswers(source.db));
    expect((answers.search as { totalCount: number }).totalCount).toBeGreaterThan(0);

    for (const key of [uploadedKey, 'demo/cover-11.jpg']) {
      expect(fs.readFileSync(targetStorage.pathOf(key))).toEqual(
        fs.readFileSync(sourceStorage.pathOf(key)),
      );
    }
    const [row] = await queryRows<{ scheduled_at: Date; updated_by: string; search_text: string }>(
      target.db,
      sql`SELECT scheduled_at, updated_by, search_text FROM cms_contents WHERE scheduled_at IS NOT NULL`,
    );
    expect(new Date(row!.scheduled_at).toISOString()).toBe('2030-01-01T00:00:00.000Z');
    expect(row!.updated_by).toBe('user:someone');
    expect(row!.search_text).not.toBe('');
    const media = await target.db
      .select()
      .from(cmsMedia)
      .where(eq(cmsMedia.url, `/uploads/${uploadedKey}`));
    expect(media[0]?.alt).toBe('試験の画像');
  });

  describe('refusals, which leave nothing behind', () => {
    let empty: Database;
    const storage = new FileSystemStorage(path.join(tmp, 'refusal-uploads'));
    beforeAll(async () => {
      empty = await createTestDatabase();
    });
    afterAll(async () => {
      await empty?.close();
    });

    const refused = async (file: string, options: ImportArchiveOptions = {}) => {
      const error = await importArchive(
        empty.db,
        storage,
        fs.createReadStream(file),
        options,
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TransferError);
      const [count] = await queryRows<{ n: number }>(
        empty.db,
        sql`SELECT (SELECT count(*) FROM cms_contents) + (SELECT count(*) FROM cms_media) AS n`,
      );
      expect(Number(count!.n)).toBe(0);
      const files = fs.existsSync(storage.root)
        ? fs.readdirSync(storage.root, { recursive: true, withFileTypes: true })
        : [];
      expect(files.filter((f) => f.isFile()).map((f) => f.name)).toEqual([]);
      return (error as Error).message;
    };

    const row = (over: Record<string, unknown>) =>
      JSON.stringify({
        endpoint: 'tags',
        id: 't1',
        status: 'PUBLISH',
        data: { name: 'タグ' },
        draftData: null,
        draftKey: null,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
        publishedAt: '2026-01-01T00:00:00.000Z',
        revisedAt: '2026-01-01T00:00:00.000Z',
        scheduledAt: null,
        updatedBy: null,
        ...over,
      });

    it('refuses what is not a gzip', async () => {
      const file = path.join(tmp, 'plain.txt');
      fs.writeFileSync(file, 'not an archive');
      expect(await refused(file)).toMatch(/展開できません/);
    });

    it('refuses an unknown endpoint and an unknown field', async () => {
      const base = [{ path: 'manifest.json', body: manifest({ contents: 1 }) }];
      const rest = [
        { path: 'versions.jsonl', body: '' },
        { path: 'media.jsonl', body: '' },
      ];
      expect(
        await refused(
          await archiveOf([
            ...base,
            { path: 'content.jsonl', body: row({ endpoint: 'secrets' }) },
            ...rest,
          ]),
        ),
      ).toMatch(/このサイトにないエンドポイントです: secrets/);
      expect(
        await refused(
          await archiveOf([
            ...base,
            { path: 'content.jsonl', body: row({ data: { name: 'x', evil: 1 } }) },
            ...rest,
          ]),
        ),
      ).toMatch(
        /tags\/t1: このサイトのコンテンツモデルに合わない値があります \('evil' is unexpected key\.\)/,
      );
      expect(
        await refused(
          await archiveOf([...base, { path: 'content.jsonl', body: row({ id: '../x' }) }, ...rest]),
        ),
      ).toMatch(/1 行目が不正です \(id\)/);
    });

    it('refuses a file name that leaves the uploads, after no row was written', async () => {
      for (const name of [
        'files/../../etc/passwd',
        'files/images/../../x.png',
        'files/.tmp/x',
        'files/other/x.png',
      ]) {
        const file = await archiveOf([
          { path: 'manifest.json', body: manifest({ files: 1 }) },
          { path: 'content.jsonl', body: '' },
          { path: 'versions.jsonl', body: '' },
          { path: 'media.jsonl', body: '' },
          { path: name, body: 'x' },
        ]);
        expect(await refused(file)).toMatch(/ファイル名が不正です/);
      }
    });

    it('removes the files it stored when the archive turns out short', async () => {
      const file = await archiveOf([
        { path: 'manifest.json', body: manifest({ files: 2 }) },
        { path: 'content.jsonl', body: '' },
        { path: 'versions.jsonl', body: '' },
        { path: 'media.jsonl', body: '' },
        { path: 'files/images/2026/01/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png', body: sample('png') },
      ]);
      expect(await refused(file)).toMatch(/ファイルが足りません/);
      expect(
        fs.existsSync(storage.pathOf('images/2026/01/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.png')),
      ).toBe(false);
    });

    it('stops at the decompressed size caps, per file and in total, and keeps nothing', async () => {
      // The attack run's finding: nothing capped what an archive unpacks to (a disk filler).
      const image = (n: number) => `files/images/2026/01/${String(n).repeat(32)}.png`;
      const twoFiles = await archiveOf([
        { path: 'manifest.json', body: manifest({ files: 2 }) },
        { path: 'content.jsonl', body: '' },
        { path: 'versions.jsonl', body: '' },
        { path: 'media.jsonl', body: '' },
        { path: image(1), body: Buffer.alloc(600, 1) },
        { path: image(2), body: Buffer.alloc(600, 2) },
      ]);
      expect(
        await refused(twoFiles, { limits: { fileBytes: 500, totalBytes: 1024 * 1024 } }),
      ).toMatch(/展開後のサイズが上限 \(500 バイト\) を超えています: files\/images/);
      // Each file fits; together they do not (the first one was stored, and is removed again).
      expect(await refused(twoFiles, { limits: { fileBytes: 1000, totalBytes: 1000 } })).toMatch(
        /展開後の合計サイズが上限 \(1000 バイト\) を超えています/,
      );
      for (const n of [1, 2])
        expect(fs.existsSync(storage.pathOf(image(n).slice('files/'.length)))).toBe(false);
      // The rows count too, not only the files.
      const bigRows = await archiveOf([
        { path: 'manifest.json', body: manifest({ contents: 1 }) },
        { path: 'content.jsonl', body: row({}) },
        { path: 'versions.jsonl', body: '' },
        { path: 'media.jsonl', body: '' },
      ]);
      expect(await refused(bigRows, { limits: { fileBytes: 1000, totalBytes: 300 } })).toMatch(
        /展開後の合計サイズが上限/,
      );
    });

    it('sanitises rich text again', async () => {
      const file = await archiveOf([
        { path: 'manifest.json', body: manifest({ contents: 1 }) },
        {
          path: 'content.jsonl',
          body: row({
            endpoint: 'about',
            id: '',
            data: { title: '概要', body: '<p onclick="x()">本文</p><script>alert(1)</script>' },
          }),
        },
        { path: 'versions.jsonl', body: '' },
        { path: 'media.jsonl', body: '' },
      ]);
      await importArchive(empty.db, storage, fs.createReadStream(file));
      const [stored] = await queryRows<{ data: { body: string } }>(
        empty.db,
        sql`SELECT data FROM cms_contents WHERE endpoint = 'about'`,
      );
      expect(stored!.data.body).toBe('<p>本文</p>');
    });
  });
});
