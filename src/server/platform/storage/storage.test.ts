import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseEnv } from '@/env';
import { refusalAnswer } from '@/server/platform/http/error-answer';
import { S3Storage } from './s3-storage';
import { FileSystemStorage, getStorage, storageFromSettings } from './storage';
import { StorageKeyError, isValidStorageKey } from '@/lib/media/storage-key';

// Before anything reads env() (it is read lazily, in the tests).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-storage-'));
process.env.DATA_DIR = dataDir;

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const bytes = (s: string) => new TextEncoder().encode(s);
const readAll = async (stream: ReadableStream<Uint8Array>) =>
  new TextDecoder().decode(await new Response(stream).arrayBuffer());

describe('storage keys', () => {
  it.each(['images/2026/01/0123abcd.jpg', 'demo/a_b-c.1.mp3', 'x', 'protected/2026/12/f.webm'])(
    'accepts %s',
    (key) => expect(isValidStorageKey(key)).toBe(true),
  );

  it.each([
    '',
    '..',
    '.',
    '../etc/passwd',
    'images/../../etc/passwd',
    'images/./a.jpg',
    'images/%2e%2e/a.jpg',
    '%2e%2e/%2e%2e/etc/passwd',
    '/etc/passwd',
    '/images/a.jpg',
    'C:\\Windows\\win.ini',
    'images\\..\\a.jpg',
    'images/a.jpg\0.png',
    'images//a.jpg',
    'images/',
    '.tmp/a.part',
    'images/.hidden.jpg',
    'Images/A.JPG',
    'images/写真.jpg',
    'images/a b.jpg',
    'a'.repeat(513),
  ])('refuses %j', (key) => {
    expect(isValidStorageKey(key)).toBe(false);
    const storage = new FileSystemStorage(path.join(dataDir, 'keys'));
    expect(() => storage.pathOf(key)).toThrow(StorageKeyError);
  });

  it('refuses non-strings', () => {
    expect(isValidStorageKey(undefined)).toBe(false);
    expect(isValidStorageKey(['images', 'a.jpg'])).toBe(false);
  });

  it('answers a key outside the rules as a 400 refusal, not a fault (decision 015)', () => {
    const storage = new FileSystemStorage(path.join(dataDir, 'keys'));
    const thrown = (() => {
      try {
        storage.pathOf('../secret.txt');
      } catch (error) {
        return error;
      }
    })();
    expect(refusalAnswer(thrown)).toMatchObject({ status: 400 });
  });
});

describe('FileSystemStorage', () => {
  const root = path.join(dataDir, 'fs');
  const storage = new FileSystemStorage(root);

  it('stores, describes, reads, reads a range of, and deletes a file', async () => {
    await storage.put('images/2026/01/abc.png', bytes('0123456789'), 'image/png');
    expect(fs.readFileSync(path.join(root, 'images/2026/01/abc.png'), 'utf8')).toBe('0123456789');

    const info = await storage.head('images/2026/01/abc.png');
    expect(info).toMatchObject({
      key: 'images/2026/01/abc.png',
      size: 10,
      contentType: 'image/png',
    });
    expect(info!.etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);

    const whole = await storage.get('images/2026/01/abc.png');
    expect(whole!.size).toBe(10);
    expect(await readAll(whole!.body)).toBe('0123456789');

    const part = await storage.get('images/2026/01/abc.png', { range: { start: 2, end: 5 } });
    expect(part!.size).toBe(10);
    expect(await readAll(part!.body)).toBe('2345');

    await expect(
      storage.get('images/2026/01/abc.png', { range: { start: 5, end: 10 } }),
    ).rejects.toThrow(RangeError);

    await storage.delete('images/2026/01/abc.png');
    expect(await storage.head('images/2026/01/abc.png')).toBeNull();
    expect(await storage.get('images/2026/01/abc.png')).toBeNull();
    await storage.delete('images/2026/01/abc.png'); // missing is fine
  });

  it('reads files larger than one read chunk in order', async () => {
    const big = new Uint8Array(600 * 1024).map((_, i) => i % 251);
    await storage.put('demo/big.mp4', big, 'video/mp4');
    const object = await storage.get('demo/big.mp4');
    const read = Buffer.from(await new Response(object!.body).arrayBuffer());
    expect(Buffer.compare(read, big)).toBe(0);
  });

  it('replaces a file whole and leaves no temporaries behind', async () => {
    await storage.put('demo/a.mp3', bytes('first'), 'audio/mpeg');
    await storage.put('demo/a.mp3', bytes('second version'), 'audio/mpeg');
    expect(fs.readFileSync(path.join(root, 'demo/a.mp3'), 'utf8')).toBe('second version');
    expect(fs.readdirSync(path.join(root, '.tmp'))).toEqual([]);
  });

  it('lists every stored key, in every folder, and nothing of writes in progress', async () => {
    const listing = new FileSystemStorage(path.join(dataDir, 'listing'));
    await listing.put('demo/a.jpg', bytes('a'), 'image/jpeg');
    await listing.put('images/2026/01/b.png', bytes('b'), 'image/png');
    await listing.put('protected/2026/01/c.mp3', bytes('c'), 'audio/mpeg');
    fs.mkdirSync(path.join(listing.root, '.tmp'), { recursive: true });
    fs.writeFileSync(path.join(listing.root, '.tmp', 'x.part'), 'half');
    const keys: string[] = [];
    for await (const key of listing.list()) keys.push(key);
    expect(keys.sort()).toEqual(['demo/a.jpg', 'images/2026/01/b.png', 'protected/2026/01/c.mp3']);
    const empty = new FileSystemStorage(path.join(dataDir, 'never-made'));
    for await (const key of empty.list()) throw new Error(`unexpected ${key}`);
  });

  it('takes over a file on disk by moving it', async () => {
    const source = path.join(dataDir, 'upload.part');
    fs.writeFileSync(source, 'moved bytes');
    await storage.put('protected/2026/01/x.mp4', { filePath: source }, 'video/mp4');
    expect(fs.existsSync(source)).toBe(false);
    expect(fs.readFileSync(path.join(root, 'protected/2026/01/x.mp4'), 'utf8')).toBe('moved bytes');
  });

  it('answers null for directories and for paths through files', async () => {
    await storage.put('demo/dir/a.mp3', bytes('x'), 'audio/mpeg');
    expect(await storage.head('demo/dir')).toBeNull();
    expect(await storage.get('demo/dir')).toBeNull();
    expect(await storage.head('demo/dir/a.mp3/b.mp3')).toBeNull();
  });

  it('never touches anything outside its root', async () => {
    const outside = path.join(dataDir, 'secret.txt');
    fs.writeFileSync(outside, 'secret');
    for (const key of ['../secret.txt', 'images/../../secret.txt', '/' + outside]) {
      await expect(storage.get(key)).rejects.toThrow(StorageKeyError);
      await expect(storage.put(key, bytes('x'), 'text/plain')).rejects.toThrow(StorageKeyError);
      await expect(storage.delete(key)).rejects.toThrow(StorageKeyError);
    }
    expect(fs.readFileSync(outside, 'utf8')).toBe('secret');
  });
});

describe('choosing the storage', () => {
  it('uses DATA_DIR/uploads by default', () => {
    const storage = getStorage();
    expect(storage).toBeInstanceOf(FileSystemStorage);
    expect((storage as FileSystemStorage).root).toBe(path.resolve(dataDir, 'uploads'));
    expect(getStorage()).toBe(storage);
  });

  it('uses an S3-compatible bucket when configured, and names what is missing', () => {
    const base = parseEnv({ DATA_DIR: os.tmpdir() });
    const s3 = {
      S3_ENDPOINT: 'https://s3.ap-northeast-1.amazonaws.com',
      S3_BUCKET: 'media',
      S3_REGION: 'ap-northeast-1',
      S3_ACCESS_KEY_ID: 'AKIA',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(storageFromSettings({ ...base, ...s3 })).toBeInstanceOf(S3Storage);
    expect(() =>
      storageFromSettings({ ...base, S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AKIA' }),
    ).toThrow('S3_ENDPOINT, S3_SECRET_ACCESS_KEY');
    expect(storageFromSettings({ ...base, S3_REGION: 'auto' })).toBeInstanceOf(FileSystemStorage);
  });
});
