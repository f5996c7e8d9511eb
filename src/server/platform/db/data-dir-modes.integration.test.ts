import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAdminSocket } from '@/server/features/admin/socket';
import { getAppSecret } from '@/server/platform/security/app-secret';
import { FileSystemStorage } from '@/server/platform/storage/storage';
import { openDatabase } from './client';

// Before anything reads env() (it is read lazily, in the test).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-modes-'));
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-modes-src-'));
process.env.DATA_DIR = dataDir;
process.env.APP_SECRET = '';

afterAll(() => {
  for (const dir of [dataDir, outside]) fs.rmSync(dir, { recursive: true, force: true });
});

/** Every path under `dir` (and `dir` itself) that its group or others may read, write or enter. */
function openToOthers(dir: string): string[] {
  const found: string[] = [];
  const visit = (file: string) => {
    const stat = fs.lstatSync(file);
    if (stat.mode & 0o077)
      found.push(`${path.relative(dataDir, file) || '.'} ${(stat.mode & 0o777).toString(8)}`);
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
  };
  visit(dir);
  return found;
}

describe('the data directory', () => {
  it('holds nothing that other OS users can read', async () => {
    process.umask(0o022); // the usual default, as a server process starts with
    fs.chmodSync(dataDir, 0o755); // an existing install, made before DATA_DIR was private

    const storage = new FileSystemStorage(path.join(dataDir, 'uploads'));
    await storage.put('images/2026/01/a.jpg', new Uint8Array([1, 2, 3]), 'image/jpeg');
    const received = path.join(outside, 'upload.part');
    fs.writeFileSync(received, 'audio');
    fs.chmodSync(received, 0o644);
    await storage.put('protected/2026/01/b.mp3', { filePath: received }, 'audio/mpeg');
    getAppSecret();

    const database = await openDatabase({ dataDir });
    const socket = await startAdminSocket(database, dataDir);
    let whileOpen: string[];
    try {
      expect(fs.existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'app-secret'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'admin.sock'))).toBe(true);
      whileOpen = openToOthers(dataDir);
    } finally {
      socket.close();
      await database.close();
    }
    expect(whileOpen).toEqual([]);
    expect(openToOthers(dataDir), 'after the database closed').toEqual([]);
  }, 120_000);
});
