import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminCommand } from '@/server/features/admin/commands';
import { recordAudit } from '@/server/platform/audit/audit-log';
import { addBookmark, listBookmarks } from '@/server/features/bookmarks/bookmarks';
import { findEndpoint } from '@/lib/cms/model';
import { copyDemoMedia, seedDemoContent } from '@/server/features/seed/seed';
import { type Database, queryRows } from '@/server/platform/db/client';
import { account, cmsMedia, user } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { createAuth } from '@/server/features/identity/auth';
import { grantComplimentary, listSubscriptions } from '@/server/features/profiles/subscriptions';
import type { MediaStorage } from '@/server/platform/storage/media-storage';
import { FileSystemStorage } from '@/server/platform/storage/storage';
import { sample, samplePngRow } from '@test-support/media-samples';
import { contentApiAnswers } from '@test-support/content-api-answers';
import { createBackup } from './create-backup';
import { BackupError } from './errors';
import { restoreBackup } from './restore-backup';
import { databaseFingerprint } from '@test-support/database-fingerprint';
import { gunzipSync } from 'node:zlib';
import type { ArchiveLimits } from '@/server/platform/archive/limits';
import { readTar } from '@/server/platform/archive/tar';
import { testWorkDir } from '@test-support/route-tests';
import { createContent, updateContent } from '@/server/services/cms/writes';

const tmp = testWorkDir('backup');

const EMAIL = 'reader@example.jp';
const PASSWORD = 'kumo-no-ue-no-sora-2026';
const imageKey = 'images/2026/05/0123456789abcdef0123456789abcdef.png';
const audioKey = 'protected/2026/05/fedcba9876543210fedcba9876543210.mp3';

async function bytesOf(storage: FileSystemStorage, key: string): Promise<Buffer | null> {
  const object = await storage.get(key);
  if (!object) return null;
  return Buffer.from(await new Response(object.body).arrayBuffer());
}

const restoreFrom = (database: Database, storage: FileSystemStorage, file: string) =>
  restoreBackup(database, storage, fs.createReadStream(file));

async function signInWorks(database: Database): Promise<boolean> {
  const auth = createAuth(database.db, { secret: 'x'.repeat(32), baseURL: 'http://localhost' });
  try {
    const result = await auth.api.signInEmail({ body: { email: EMAIL, password: PASSWORD } });
    return Boolean(result.user);
  } catch {
    return false;
  }
}

function storedKeys(storage: FileSystemStorage): string[] {
  if (!fs.existsSync(storage.root)) return [];
  return fs
    .readdirSync(storage.root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative(storage.root, path.join(d.parentPath, d.name)))
    .sort();
}

describe('backup and restore of a whole instance', () => {
  let source: Database;
  let target: Database;
  /** Stays empty: every refused restore is tried on it. */
  let empty: Database;
  const sourceStorage = new FileSystemStorage(path.join(tmp, 'source-uploads'));
  const targetStorage = new FileSystemStorage(path.join(tmp, 'target-uploads'));
  const emptyStorage = new FileSystemStorage(path.join(tmp, 'empty-uploads'));
  const backupFile = path.join(tmp, 'backups', 'site.tar.gz');
  let userId: string;

  beforeAll(async () => {
    [source, target, empty] = await Promise.all([
      createTestDatabase(),
      createTestDatabase(),
      createTestDatabase(),
    ]);
    // Content: the demo corpus with its media, a draft and a pending change.
    await seedDemoContent(source.db);
    await copyDemoMedia(sourceStorage.root);
    const posts = findEndpoint('posts')!;
    await createContent(source.db, posts, {
      id: 'draft-only',
      status: 'draft',
      body: {
        title: '下書きだけの記事',
        body: `<p>本文</p><img src="/uploads/${imageKey}" alt="図">`,
      },
    });
    const [first] = await queryRows<{ id: string }>(
      source.db,
      sql`SELECT id FROM cms_contents WHERE endpoint = 'posts' AND status = 'PUBLISH' ORDER BY id LIMIT 1`,
    );
    await updateContent(source.db, posts, first!.id, { title: '新しい見出し' }, { draft: true });
    // Media: a public image and a protected audio file, both in the media library.
    await sourceStorage.put(imageKey, sample('png'), 'image/png');
    await sourceStorage.put(audioKey, sample('mp3'), 'audio/mpeg');
    await source.db.insert(cmsMedia).values([
      samplePngRow(`/uploads/${imageKey}`),
      {
        url: `/media/${audioKey}`,
        kind: 'audio',
        contentType: 'audio/mpeg',
        fileSize: sample('mp3').length,
        alt: '',
        filename: 'talk.mp3',
      },
    ]);
    // A reader with a password, a plan, a bookmark; an audit event.
    await runAdminCommand({ database: source, actor: 'cli:test' }, 'create-user', {
      email: EMAIL,
      password: PASSWORD,
      name: '読者 テスト',
    });
    const [row] = await source.db.select({ id: user.id }).from(user).where(eq(user.email, EMAIL));
    userId = row!.id;
    await grantComplimentary(source.db, {
      userId,
      planName: 'スタンダード',
      status: 'active',
      days: 30,
    });
    await addBookmark(source.db, userId, { endpoint: 'posts', contentId: first!.id });
    await recordAudit(source.db, {
      actor: 'cli:test',
      action: 'role-changed',
      target: `user:${userId}`,
    });
    expect(await signInWorks(source)).toBe(true);
  });

  afterAll(async () => {
    await Promise.all([source?.close(), target?.close(), empty?.close()]);
  });

  it('writes one private archive with every table, the migrations and every media file', async () => {
    const result = await createBackup(source, sourceStorage, { out: backupFile });
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    const { manifest } = result;
    const names = manifest.tables.map((t) => t.name);
    // Discovered from the catalog, parents before children, drizzle's own table left out.
    for (const table of [
      'user',
      'account',
      'subscriptions',
      'bookmarks',
      'cms_contents',
      'audit_events',
      // The newsletter's queue, suppressions and consent records are site data: backed up.
      'newsletter_sends',
      'newsletter_letters',
      'newsletter_suppressions',
      'newsletter_consents',
    ])
      expect(names).toContain(table);
    expect(names.indexOf('user')).toBeLessThan(names.indexOf('account'));
    expect(names.indexOf('newsletter_sends')).toBeLessThan(names.indexOf('newsletter_letters'));
    expect(names.indexOf('user_public_profiles')).toBeLessThan(names.indexOf('subscriptions'));
    expect(names).not.toContain('__drizzle_migrations');
    expect(manifest.migrations.length).toBeGreaterThan(10);
    expect(manifest.migrations[0]!.tag).toBe('0000_init');
    expect(manifest.tables.find((t) => t.name === 'user')!.rows).toBe(1);
    expect(manifest.files.count).toBe(storedKeys(sourceStorage).length);
    expect(result.missingFiles).toEqual([]);
    // Nothing is left behind beside it.
    expect(fs.readdirSync(path.dirname(backupFile))).toEqual(['site.tar.gz']);
    await expect(createBackup(source, sourceStorage, { out: backupFile })).rejects.toThrow(
      /すでにあります/,
    );
  });

  it('restores into an empty instance: same rows, content, sign-in, plan, bookmark and media', async () => {
    const before = await databaseFingerprint(source.db);
    const result = await restoreFrom(target, targetStorage, backupFile);
    expect(result.inventory.users).toBe(1);
    expect(result.files).toBe(storedKeys(sourceStorage).length);

    // Every table and sequence, as PostgreSQL itself prints each row.
    expect(await databaseFingerprint(target.db)).toEqual(before);
    expect(await contentApiAnswers(target.db)).toEqual(await contentApiAnswers(source.db));
    expect(await signInWorks(target)).toBe(true);
    const hash = (db: Database) =>
      db.db.select({ password: account.password }).from(account).where(eq(account.userId, userId));
    expect(await hash(target)).toEqual(await hash(source));
    expect(await listSubscriptions(target.db, userId)).toEqual(
      await listSubscriptions(source.db, userId),
    );
    const bookmarksOf = (db: Database) => listBookmarks(db.db, userId, { limit: 10, offset: 0 });
    expect((await bookmarksOf(target)).total).toBe(1);
    expect(await bookmarksOf(target)).toEqual(await bookmarksOf(source));
    expect(storedKeys(targetStorage)).toEqual(storedKeys(sourceStorage));
    expect(await bytesOf(targetStorage, imageKey)).toEqual(Buffer.from(sample('png')));
    expect(await bytesOf(targetStorage, audioKey)).toEqual(Buffer.from(sample('mp3')));

    // The sequences stand where they stood: the next version row gets a fresh id.
    await updateContent(
      target.db,
      findEndpoint('posts')!,
      'draft-only',
      { title: '続き' },
      { draft: true },
    );
  });

  it('refuses an instance that has users or content, and changes nothing', async () => {
    const before = await databaseFingerprint(target.db);
    const error = await restoreFrom(target, targetStorage, backupFile).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toMatch(
      /^この環境にはすでにデータがあるため復元できません（ユーザー 1 人、.*記事 \d+ 件.*）。/,
    );
    expect(await databaseFingerprint(target.db)).toEqual(before);
  });

  async function expectRefusedIntoEmpty(file: string, message: RegExp, limits?: ArchiveLimits) {
    const before = await databaseFingerprint(empty.db);
    await expect(
      restoreBackup(empty, emptyStorage, fs.createReadStream(file), { limits }),
    ).rejects.toThrow(message);
    expect(await databaseFingerprint(empty.db)).toEqual(before);
    expect(storedKeys(emptyStorage)).toEqual([]);
  }

  it('refuses a truncated or damaged archive and keeps no row and no file of it', async () => {
    const whole = fs.readFileSync(backupFile);
    const truncated = path.join(tmp, 'truncated.tar.gz');
    // Cut near the end: every table has been read and files stored when it breaks off.
    fs.writeFileSync(truncated, whole.subarray(0, whole.length - 40));
    await expectRefusedIntoEmpty(truncated, /壊れているか、途中で切れています/);

    const damaged = path.join(tmp, 'damaged.tar.gz');
    const copy = Buffer.from(whole);
    copy[Math.floor(copy.length * 0.6)]! ^= 0xff;
    fs.writeFileSync(damaged, copy);
    await expectRefusedIntoEmpty(damaged, /壊れている|形式が違います|一致しません|行目/);

    const notGzip = path.join(tmp, 'plain.txt');
    fs.writeFileSync(notGzip, 'not a backup');
    await expectRefusedIntoEmpty(notGzip, /gzip として展開できません/);
  });

  it('stops at the decompressed size caps and keeps no row and no file of it', async () => {
    // The sizes the tar headers announce, as the restore adds them up.
    let total = 0;
    let largestFile = 0;
    for await (const entry of readTar(Readable.from(gunzipSync(fs.readFileSync(backupFile))))) {
      total += entry.size;
      if (entry.path.startsWith('files/')) largestFile = Math.max(largestFile, entry.size);
      for await (const chunk of entry.body) void chunk;
    }
    expect(largestFile).toBeGreaterThan(0);
    const big = 1024 * 1024 * 1024;
    // Past the total only at the last entry: every table was written and files stored by then.
    await expectRefusedIntoEmpty(backupFile, /展開後の合計サイズが上限.*何も変更していません/, {
      totalBytes: total - 1,
      fileBytes: big,
    });
    await expectRefusedIntoEmpty(backupFile, /展開後のサイズが上限.*files\//, {
      totalBytes: big,
      fileBytes: largestFile - 1,
    });
  });

  it('refuses a backup made under another list of migrations', async () => {
    const migrations = sql`drizzle.__drizzle_migrations`;
    // Newer: the backed-up instance had a migration this app does not know.
    await source.db.execute(
      sql`INSERT INTO ${migrations} (hash, created_at) VALUES ('future-migration', 9999999999999)`,
    );
    const newer = path.join(tmp, 'newer.tar.gz');
    try {
      await createBackup(source, sourceStorage, { out: newer });
    } finally {
      await source.db.execute(sql`DELETE FROM ${migrations} WHERE hash = 'future-migration'`);
    }
    await expectRefusedIntoEmpty(
      newer,
      /一致しません。.*先にアプリを新しい版に更新してから復元してください/,
    );

    // Older: the backed-up instance lacked this app's last migration.
    const [last] = await queryRows<{ id: number; hash: string; created_at: string }>(
      source.db,
      sql`SELECT id, hash, created_at FROM ${migrations} ORDER BY id DESC LIMIT 1`,
    );
    await source.db.execute(sql`DELETE FROM ${migrations} WHERE id = ${last!.id}`);
    const older = path.join(tmp, 'older.tar.gz');
    try {
      await createBackup(source, sourceStorage, { out: older });
    } finally {
      await source.db.execute(
        sql`INSERT INTO ${migrations} (id, hash, created_at) VALUES (${last!.id}, ${last!.hash}, ${last!.created_at})`,
      );
    }
    await expectRefusedIntoEmpty(
      older,
      /バックアップの方が古いため、バックアップを作ったときの版のアプリで/,
    );
  });

  it('carries every file the storage lists, orphans too, and names a referenced file that is missing', async () => {
    // Another kind of storage (S3 here): only its interface is used, listing included.
    const bucket: MediaStorage = {
      kind: 's3',
      put: (...args) => sourceStorage.put(...args),
      get: (...args) => sourceStorage.get(...args),
      head: (...args) => sourceStorage.head(...args),
      delete: (...args) => sourceStorage.delete(...args),
      list: () => sourceStorage.list(),
    };
    const orphan = 'images/2026/05/00000000000000000000000000000000.png';
    await sourceStorage.put(orphan, sample('png'), 'image/png');
    await sourceStorage.delete(audioKey);
    const everything = storedKeys(sourceStorage);
    expect(everything).toContain(orphan);
    const result = await createBackup(source, bucket, { out: path.join(tmp, 's3.tar.gz') });
    expect(result.manifest.files.count).toBe(everything.length);
    expect(result.missingFiles).toEqual([audioKey]);
  });
});

describe('values of every kind come back exactly', () => {
  let source: Database;
  let target: Database;
  const storage = new FileSystemStorage(path.join(tmp, 'probe-uploads'));
  const file = path.join(tmp, 'probe.tar.gz');

  // A table no migration makes: the backup finds it in the catalog like any other. Identity
  // (ALWAYS), a self reference to a later row, a generated column, and the awkward types.
  const probe = sql.raw(`
    CREATE TABLE public.backup_probe (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      parent bigint REFERENCES public.backup_probe (id),
      at timestamptz, plain timestamp, day date, span interval,
      doc jsonb, raw json, bytes bytea, tags text[], grid integer[][],
      amount numeric(30, 10), ratio double precision, flag boolean, note text,
      doubled numeric GENERATED ALWAYS AS (amount * 2) STORED
    )`);

  beforeAll(async () => {
    [source, target] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    await source.db.execute(probe);
    await target.db.execute(probe);
    await source.db.execute(
      sql.raw(`
      INSERT INTO public.backup_probe (parent, at, plain, day, span, doc, raw, bytes, tags, grid, amount, ratio, flag, note) VALUES
        (NULL, '2026-03-01 09:30:00.123456+09', '2026-03-01 09:30:00.654321', '2024-02-29', '1 year 2 mons 3 days 04:05:06.789',
         '{"a": [1, 2.50, {"b": null}], "s": "引用 \\"符\\"\\n改行", "n": 12345678901234567890.123}', '{"keep":  "spacing" , "dup": 1, "dup": 2}',
         '\\x00ff10deadbeef', ARRAY['a', NULL, 'カンマ,と"引用"', ''], '{{1,2},{3,4}}', 12345678901234567890.0123456789, 0.1, true, E'tab\\there'),
        (NULL, 'infinity', NULL, NULL, NULL, 'null', NULL, '\\x', '{}', NULL, 'NaN', 'NaN', false, NULL),
        (NULL, NULL, NULL, NULL, NULL, '"just a string"', 'null', NULL, NULL, NULL, -0.0000000001, 1e-310, NULL, ''),
        (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 'deleted')`),
    );
    // The first row points at a later one: a restore inserting row by row would fail here.
    await source.db.execute(sql.raw(`UPDATE public.backup_probe SET parent = 3 WHERE id = 1`));
    await source.db.execute(sql.raw(`DELETE FROM public.backup_probe WHERE id = 4`));
  });

  afterAll(async () => {
    await Promise.all([source?.close(), target?.close()]);
  });

  it('round-trips timestamps, jsonb, json, bytea, arrays, numerics, floats, booleans and nulls', async () => {
    await createBackup(source, storage, { out: file });
    await restoreBackup(target, storage, fs.createReadStream(file));
    const rows = (db: Database) =>
      queryRows(db.db, sql.raw(`SELECT t::text AS row FROM public.backup_probe t ORDER BY id`));
    expect(await rows(target)).toEqual(await rows(source));
    expect(await databaseFingerprint(target.db)).toEqual(await databaseFingerprint(source.db));
    // jsonb 'null' stays a JSON null, not an SQL NULL.
    const [nulls] = await queryRows<{ json_null: number; sql_null: number }>(
      target.db,
      sql.raw(`SELECT count(*) FILTER (WHERE doc = 'null'::jsonb)::int AS json_null,
                      count(*) FILTER (WHERE doc IS NULL)::int AS sql_null FROM public.backup_probe`),
    );
    expect(nulls).toEqual({ json_null: 1, sql_null: 0 });
    // The identity goes on after the highest id ever given, not after the highest kept.
    const [next] = await queryRows<{ id: string }>(
      target.db,
      sql.raw(`INSERT INTO public.backup_probe (note) VALUES ('next') RETURNING id::text`),
    );
    expect(next!.id).toBe('5');
  });

  it('refuses an archive that is not a backup', async () => {
    const other = await createTestDatabase();
    try {
      await other.db.execute(probe);
      await expect(
        restoreBackup(other, storage, Readable.from([Buffer.from('garbage')])),
      ).rejects.toThrow(BackupError);
    } finally {
      await other.close();
    }
  });
});
