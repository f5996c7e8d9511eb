import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '@/server/platform/db/client';
import { cmsContents, cmsMedia } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { findEndpoint } from '@/lib/cms/model';
import { FileSystemStorage } from '@/server/platform/storage/storage';
import {
  ALT_REQUIRED_FOR_IMAGE,
  deleteMedia,
  findMediaUsage,
  getMedia,
  listMedia,
  registerMedia,
  storageKeyOfUrl,
  updateMediaAlt,
  usageCounts,
} from './library';

/**
 * The media library on a real database: registration, search, alt text, where a file is used
 * (published data, drafts, rich-text bodies) and deletion refused while it is used.
 */

const ABOUT_LABEL = findEndpoint('about')!.label;
const POSTS_LABEL = findEndpoint('posts')!.label;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-media-library-'));
const storage = new FileSystemStorage(root);
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
  fs.rmSync(root, { recursive: true, force: true });
});
beforeEach(async () => {
  await database.db.delete(cmsMedia);
  await database.db.delete(cmsContents);
});

let n = 0;
async function addImage(alt = '窓辺の椅子', filename = 'chair.jpg') {
  const url = `/uploads/images/2026/11/${String(++n).padStart(32, '0')}.jpg`;
  await storage.put(url.replace('/uploads/', ''), new Uint8Array([1, 2, 3]), 'image/jpeg');
  return registerMedia(database.db, {
    url,
    kind: 'image',
    contentType: 'image/jpeg',
    fileSize: 3,
    width: 1200,
    height: 800,
    alt,
    filename,
    uploadedBy: 'user:u-editor',
  });
}

async function addContent(
  endpoint: string,
  id: string,
  data: Record<string, unknown> | null,
  draftData: Record<string, unknown> | null = null,
) {
  const now = new Date();
  await database.db.insert(cmsContents).values({
    endpoint,
    id,
    status: data ? (draftData ? 'PUBLISH_AND_DRAFT' : 'PUBLISH') : 'DRAFT',
    data,
    draftData,
    createdAt: now,
    updatedAt: now,
  });
}

const exists = (url: string) => fs.existsSync(path.join(root, storageKeyOfUrl(url)!));

describe('registerMedia', () => {
  it('keeps one row per URL and the first registration', async () => {
    const first = await addImage('最初の説明');
    const again = await registerMedia(database.db, {
      url: first.url,
      kind: 'image',
      contentType: 'image/jpeg',
      fileSize: 3,
      alt: '二度目',
    });
    expect(again.id).toBe(first.id);
    expect(again.alt).toBe('最初の説明');
    expect(await database.db.select().from(cmsMedia)).toHaveLength(1);
  });

  it('keeps only the last segment of an uploaded name, without control characters', async () => {
    const media = await registerMedia(database.db, {
      url: '/media/protected/2026/11/a.mp3',
      kind: 'audio',
      contentType: 'audio/mpeg',
      fileSize: 10,
      filename: 'C:\\Users\\me\\番組\u0007.mp3',
    });
    expect(media.filename).toBe('番組.mp3');
    expect(media.alt).toBe('');
    expect(media.width).toBeNull();
  });
});

describe('listMedia', () => {
  it('searches file names and alt text, filters by kind and pages newest first', async () => {
    await addImage('夕暮れの屋上', 'roof.jpg');
    await addImage('木の椅子', 'chair_100%.jpg');
    await registerMedia(database.db, {
      url: '/media/protected/2026/11/talk.mp3',
      kind: 'audio',
      contentType: 'audio/mpeg',
      fileSize: 99,
      filename: '屋上での対談.mp3',
    });

    const roof = await listMedia(database.db, { q: '屋上', kind: '', page: 1 });
    expect(roof.items.map((i) => i.filename).sort()).toEqual(['roof.jpg', '屋上での対談.mp3']);
    const images = await listMedia(database.db, { q: '屋上', kind: 'image', page: 1 });
    expect(images.items.map((i) => i.filename)).toEqual(['roof.jpg']);
    // LIKE's wildcards match themselves.
    expect((await listMedia(database.db, { q: '_100%', kind: '', page: 1 })).total).toBe(1);
    expect((await listMedia(database.db, { q: 'r_of', kind: '', page: 1 })).total).toBe(0);

    const page2 = await listMedia(database.db, { q: '', kind: '', page: 2 }, 2);
    expect(page2).toMatchObject({ total: 3, page: 2, pageCount: 2 });
    expect(page2.items).toHaveLength(1);
    // A page past the end shows the last one.
    expect((await listMedia(database.db, { q: '', kind: '', page: 99 }, 2)).page).toBe(2);
  });
});

describe('updateMediaAlt', () => {
  it('saves trimmed alt text, refuses an empty one for an image', async () => {
    const image = await addImage();
    expect(await updateMediaAlt(database.db, image.id, '  新しい説明  ')).toMatchObject({
      ok: true,
      media: { alt: '新しい説明' },
    });
    expect(await updateMediaAlt(database.db, image.id, '   ')).toEqual({
      ok: false,
      reason: 'invalid',
      message: ALT_REQUIRED_FOR_IMAGE,
    });
    expect((await getMedia(database.db, image.id))?.alt).toBe('新しい説明');
    expect(await updateMediaAlt(database.db, '00000000-0000-4000-8000-000000000000', 'x')).toEqual({
      ok: false,
      reason: 'not-found',
    });
  });
});

describe('findMediaUsage and deleteMedia', () => {
  it('finds a file in media fields, drafts and rich-text bodies, with each item’s title', async () => {
    const image = await addImage();
    const other = await addImage();
    await addContent('posts', 'p-cover', {
      title: 'カバーに使う記事',
      coverImage: { url: image.url, width: 1200, height: 800, alt: 'x' },
    });
    await addContent(
      'posts',
      'p-draft',
      { title: '公開版では使わない' },
      { title: '下書きで使う記事', body: `<figure><img src="${image.url}" alt="x"></figure>` },
    );
    await addContent('about', '', {
      title: 'このサイトについて',
      body: `<p><img src="${image.url}"></p>`,
    });
    await addContent('posts', 'p-other', { title: '別の画像', coverImage: { url: other.url } });

    const usage = await findMediaUsage(database.db, image.url);
    expect(usage).toHaveLength(3);
    const counts = await usageCounts(database.db, [
      image.url,
      other.url,
      '/uploads/images/none.png',
    ]);
    expect([...counts]).toEqual([
      [image.url, 3],
      [other.url, 1],
      ['/uploads/images/none.png', 0],
    ]);
    expect(usage).toEqual(
      expect.arrayContaining([
        {
          endpoint: 'posts',
          endpointLabel: POSTS_LABEL,
          id: 'p-cover',
          title: 'カバーに使う記事',
          inPublished: true,
          inDraft: false,
        },
        {
          endpoint: 'posts',
          endpointLabel: POSTS_LABEL,
          id: 'p-draft',
          title: '下書きで使う記事',
          inPublished: false,
          inDraft: true,
        },
        {
          endpoint: 'about',
          endpointLabel: ABOUT_LABEL,
          id: '',
          title: 'このサイトについて',
          inPublished: true,
          inDraft: false,
        },
      ]),
    );
  });

  it('refuses to delete a used file, naming the count, and keeps row and file', async () => {
    const image = await addImage();
    await addContent('posts', 'a', { coverImage: { url: image.url } });
    await addContent('posts', 'b', null, { body: `<img src="${image.url}">` });

    const refused = await deleteMedia(database.db, storage, image.id);
    expect(refused).toMatchObject({ ok: false, reason: 'in-use' });
    expect(refused.ok ? '' : 'message' in refused ? refused.message : '').toContain(
      '2件のコンテンツで使われているため削除できません',
    );
    expect(await getMedia(database.db, image.id)).not.toBeNull();
    expect(exists(image.url)).toBe(true);
  });

  it('deletes an unused file: its row and the stored file', async () => {
    const image = await addImage();
    const kept = await addImage();
    await addContent('posts', 'a', { coverImage: { url: kept.url } });

    expect(await deleteMedia(database.db, storage, image.id)).toMatchObject({ ok: true });
    expect(await getMedia(database.db, image.id)).toBeNull();
    expect(exists(image.url)).toBe(false);
    expect(exists(kept.url)).toBe(true);
    expect(await deleteMedia(database.db, storage, image.id)).toEqual({
      ok: false,
      reason: 'not-found',
    });
  });
});

describe('storageKeyOfUrl', () => {
  it('maps library URLs to storage keys and nothing else', () => {
    expect(storageKeyOfUrl('/uploads/images/2026/11/a.png')).toBe('images/2026/11/a.png');
    expect(storageKeyOfUrl('/media/protected/demo/audio-01.mp3')).toBe(
      'protected/demo/audio-01.mp3',
    );
    expect(storageKeyOfUrl('/uploads/../secret')).toBeNull();
    expect(storageKeyOfUrl('https://example.com/uploads/a.png')).toBeNull();
  });
});
