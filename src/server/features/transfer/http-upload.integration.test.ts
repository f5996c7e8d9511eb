import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database } from '@/server/platform/db/client';
import { createTestDatabase } from '@test-support/db/test-database';
import type { AppUser } from '@/server/features/identity/session-user';
import {
  INTERRUPTED_MESSAGE,
  NO_BOUNDARY_MESSAGE,
  TOO_MANY_PARTS_MESSAGE,
  TRUNCATED_MESSAGE,
} from '@/server/platform/storage/multipart';
import { FileSystemStorage } from '@/server/platform/storage/storage';
import { transferHandlers } from './http';
import { contentInventory, notEmptyMessage } from './inventory';
import { currentTransfer } from './progress';
import { testWorkDir } from '@test-support/route-tests';
import { countedStream, droppedStream } from '@test-support/streams';

/**
 * Broken and hostile bodies against the archive upload (POST /api/admin/transfer/import), on
 * an empty instance: each is answered 400 with the reason in the archive field, no temporary
 * file is left under <DATA_DIR>/tmp/transfer, no import starts and the instance stays empty.
 */

const tmp = testWorkDir('transfer-upload');
const SITE = 'http://localhost:3000';
const admin: AppUser = {
  id: 'u-admin',
  email: 'admin@example.jp',
  name: 'admin',
  role: 'admin',
  emailVerified: true,
};

let database: Database;
let handlers: ReturnType<typeof transferHandlers>;

beforeAll(async () => {
  database = await createTestDatabase();
  handlers = transferHandlers({
    viewer: () => Promise.resolve(admin),
    db: () => Promise.resolve(database.db),
    storage: () => new FileSystemStorage(path.join(tmp, 'uploads')),
  });
});
afterAll(async () => {
  await database.close();
});

async function post(body: string | Uint8Array | ReadableStream<Uint8Array>) {
  const res = await handlers.importArchive(
    new Request(`${SITE}/api/admin/transfer/import`, {
      method: 'POST',
      headers: {
        host: 'localhost:3000',
        origin: SITE,
        accept: 'application/json',
        'content-type': 'multipart/form-data; boundary=b',
      },
      body,
      duplex: 'half',
    } as RequestInit),
  );
  return {
    status: res.status,
    body: (await res.json()) as { fieldErrors?: Record<string, string> },
  };
}

async function expectRefused(
  answer: Awaited<ReturnType<typeof post>>,
  reason: string,
): Promise<void> {
  expect(answer.status).toBe(400);
  expect(answer.body.fieldErrors).toEqual({
    archive: `送信内容を読み取れませんでした: ${reason}`,
  });
  const temp = path.join(tmp, 'data', 'tmp', 'transfer');
  expect(fs.existsSync(temp) ? fs.readdirSync(temp) : []).toEqual([]);
  expect(currentTransfer()).toBeNull();
  expect(notEmptyMessage(await contentInventory(database.db))).toBeNull();
}

const archiveHead =
  '--b\r\nContent-Disposition: form-data; name="confirm"\r\n\r\non\r\n' +
  '--b\r\nContent-Disposition: form-data; name="archive"; filename="a.tar.gz"\r\n' +
  'Content-Type: application/gzip\r\n\r\n';

describe('POST /api/admin/transfer/import with a bad body', () => {
  it('refuses a body cut inside the archive', async () => {
    await expectRefused(await post(archiveHead + 'x'.repeat(5000)), TRUNCATED_MESSAGE);
  });

  it('refuses 10,000 tiny fields', async () => {
    const fields = Array.from(
      { length: 10_000 },
      (_, i) => `--b\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\nx\r\n`,
    ).join('');
    await expectRefused(await post(fields + '--b--\r\n'), TOO_MANY_PARTS_MESSAGE);
  });

  it('stops reading an endless field value', async () => {
    const endless = countedStream({
      head: '--b\r\nContent-Disposition: form-data; name="confirm"\r\n\r\n',
      chunk: 16 * 1024,
    });
    await expectRefused(await post(endless.stream), NO_BOUNDARY_MESSAGE);
    expect(endless.pulled()).toBeLessThan(256 * 1024);
  });

  it('answers, and leaves no temporary file, when the client goes away mid-archive', async () => {
    await expectRefused(
      await post(droppedStream(archiveHead + 'x'.repeat(70_000))),
      INTERRUPTED_MESSAGE,
    );
  });
});
