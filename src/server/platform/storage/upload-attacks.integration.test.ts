import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApiKey } from '@/server/services/cms/api-keys';
import { type Database } from '@/server/platform/db/client';
import { cmsMedia } from '@/server/platform/db/schema';
import { createTestDatabase } from '@test-support/db/test-database';
import { testDataDir } from '@test-support/route-tests';
import { droppedStream } from '@test-support/streams';
import {
  BAD_HEADER_MESSAGE,
  INTERRUPTED_MESSAGE,
  TOO_MANY_PARTS_MESSAGE,
  TRUNCATED_MESSAGE,
} from './multipart';
import { sample } from '@test-support/media-samples';
import { BODY_IDLE_MS } from '@/server/platform/http/read-body';
import { handleMediaUpload } from '@/server/features/media/api-upload';
import { sweepUploadTemps } from './upload';

/**
 * Hostile and broken multipart bodies against POST /api/media. Each asserts the answer (status
 * and Japanese message), that no temporary file is left under <DATA_DIR>/tmp/uploads, and that
 * nothing was stored or registered, unless the upload is meant to succeed.
 */

const dataDir = testDataDir('upload-attacks', { secret: false });
process.env.CMS_RATE_LIMIT_WRITE = '100000';

let database: Database;
let key: string;

beforeAll(async () => {
  database = await createTestDatabase();
  key = (await createApiKey(database.db, { name: 'attacker', permissions: ['POST'] })).key;
});
afterAll(async () => {
  await database.close();
});
beforeEach(async () => {
  await database.db.delete(cmsMedia);
  fs.rmSync(path.join(dataDir, 'uploads'), { recursive: true, force: true });
});

const NO_FILE = 'file フィールドにファイルを指定してください。';
const NOT_MULTIPART = 'multipart/form-data で、file フィールドにファイルを入れて送ってください。';

const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((d) => d.isFile())
        .map((d) => path.relative(dir, path.join(d.parentPath, d.name)))
    : [];

type Body = string | Uint8Array | ReadableStream<Uint8Array>;

async function post(body: Body, contentType = 'multipart/form-data; boundary=b') {
  const res = await handleMediaUpload(
    new Request('http://localhost/api/media', {
      method: 'POST',
      headers: { 'x-microcms-api-key': key, 'content-type': contentType },
      body,
      duplex: 'half',
    } as RequestInit),
    { db: database.db },
  );
  const json = (await res.json()) as { message?: string; url?: string; contentType?: string };
  return { status: res.status, ...json };
}

/** The request was refused and left nothing behind. */
async function expectNothingLeft() {
  expect(filesUnder(path.join(dataDir, 'tmp', 'uploads'))).toEqual([]);
  expect(filesUnder(path.join(dataDir, 'uploads'))).toEqual([]);
  expect(await database.db.select().from(cmsMedia)).toEqual([]);
}

/** A multipart body from parts given as [header lines, body]; `end: false` drops the close. */
function body(parts: [string, Uint8Array | string][], end = true): Uint8Array {
  const chunks: Buffer[] = [];
  for (const [headers, content] of parts) {
    chunks.push(Buffer.from(`--b\r\n${headers}\r\n\r\n`, 'latin1'), Buffer.from(content));
    chunks.push(Buffer.from('\r\n'));
  }
  if (end) chunks.push(Buffer.from('--b--\r\n'));
  return Buffer.concat(chunks);
}
const fileHeader = (disposition: string, type = 'application/octet-stream') =>
  `Content-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: ${type}`;
const png = sample('png');

async function storedFilename(): Promise<string> {
  const rows = await database.db.select().from(cmsMedia);
  expect(rows).toHaveLength(1);
  return rows[0]!.filename;
}

describe('POST /api/media: file names', () => {
  it('does not take a part whose quoted name a CR LF cuts for a file', async () => {
    const res = await post(body([[fileHeader('filename="a\r\nX-Evil: 1.png"'), png]]));
    // The line ends inside the quotes: no valid Content-Disposition, so not a file part.
    expect(res).toEqual({ status: 400, message: NO_FILE });
    await expectNothingLeft();
  });

  it('keeps no control characters from an encoded CR LF (RFC 5987 filename*)', async () => {
    const res = await post(body([[fileHeader(`filename*=UTF-8''a%0D%0AX-Evil%3A%201.png`), png]]));
    expect(res.status).toBe(201);
    expect(await storedFilename()).toBe('aX-Evil: 1.png');
  });

  it('decodes RFC 5987 names, which win over the plain one', async () => {
    const disposition = `filename="fallback.png"; filename*=UTF-8''%E5%86%99%E7%9C%9F.png`;
    expect((await post(body([[fileHeader(disposition), png]]))).status).toBe(201);
    expect(await storedFilename()).toBe('写真.png');
  });

  it('reads escaped quotes as part of the name', async () => {
    expect((await post(body([[fileHeader('filename="a \\"b\\".png"'), png]]))).status).toBe(201);
    expect(await storedFilename()).toBe('a "b".png');
  });

  it('never lets a name choose where the file goes', async () => {
    const res = await post(body([[fileHeader('filename="../../../../etc/cron.d/x.png"'), png]]));
    expect(res.status).toBe(201);
    expect(res.url).toMatch(/^\/uploads\/images\/\d{4}\/\d{2}\/[0-9a-f]{32}\.png$/);
    expect(await storedFilename()).toBe('x.png');
    expect(filesUnder(dataDir).filter((f) => !f.startsWith('uploads/images/'))).toEqual(
      filesUnder(dataDir).filter((f) => !f.startsWith('uploads/')),
    );
  });

  it('stores bytes that are not UTF-8 in a name as U+FFFD', async () => {
    const header = Buffer.concat([
      Buffer.from('--b\r\n' + 'Content-Disposition: form-data; name="file"; filename="caf'),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('.png"\r\n\r\n'),
    ]);
    const res = await post(Buffer.concat([header, png, Buffer.from('\r\n--b--\r\n')]));
    expect(res.status).toBe(201);
    expect(await storedFilename()).toBe('caf\uFFFD\uFFFD.png');
  });
});

describe('POST /api/media: the file part', () => {
  it('refuses a form without a file field', async () => {
    const res = await post(body([['Content-Disposition: form-data; name="note"', 'x']]));
    expect(res).toEqual({ status: 400, message: NO_FILE });
    await expectNothingLeft();
  });

  it('refuses `file` sent as a text field', async () => {
    const res = await post(body([['Content-Disposition: form-data; name="file"', 'x']]));
    expect(res).toEqual({ status: 400, message: NO_FILE });
    await expectNothingLeft();
  });

  it('refuses a file part under another name before `file`', async () => {
    const res = await post(
      body([
        ['Content-Disposition: form-data; name="image"; filename="a.png"', png],
        [fileHeader('filename="b.png"'), png],
      ]),
    );
    expect(res).toEqual({ status: 400, message: NO_FILE });
    await expectNothingLeft();
  });

  it('stores only the first of two `file` parts and reads nothing after it', async () => {
    const html = '<!doctype html><script>alert(1)</script>';
    const res = await post(
      body([
        [fileHeader('filename="a.png"'), png],
        [fileHeader('filename="b.html"'), html],
      ]),
    );
    expect(res.status).toBe(201);
    expect(res.contentType).toBe('image/png');
    expect(await storedFilename()).toBe('a.png');
    expect(filesUnder(path.join(dataDir, 'uploads'))).toHaveLength(1);
  });

  it('judges by the bytes when the part Content-Type and name lie', async () => {
    const lying = await post(
      body([[fileHeader('filename="photo.jpg"', 'image/jpeg'), '<svg onload="alert(1)"/>']]),
    );
    expect(lying.status).toBe(400);
    expect(lying.message).toContain('検出された形式: SVG');
    await expectNothingLeft();

    const renamed = await post(body([[fileHeader('filename="photo.jpg"', 'image/jpeg'), png]]));
    expect(renamed.status).toBe(201);
    expect(renamed.contentType).toBe('image/png');
    expect(renamed.url).toMatch(/\.png$/);
  });

  it('does not crash on a field named __proto__', async () => {
    const res = await post(
      body([
        ['Content-Disposition: form-data; name="__proto__"', 'x'],
        [fileHeader('filename="a.png"'), png],
      ]),
    );
    expect(res.status).toBe(201);
  });
});

describe('POST /api/media: the body', () => {
  it.each([
    ['no boundary', 'multipart/form-data'],
    ['an empty boundary', 'multipart/form-data; boundary='],
    ['a boundary over 70 characters', `multipart/form-data; boundary=${'b'.repeat(71)}`],
    ['another type', 'text/plain; boundary=b'],
  ])('refuses %s', async (_, contentType) => {
    const res = await post(body([[fileHeader('filename="a.png"'), png]]), contentType);
    expect(res).toEqual({ status: 400, message: NOT_MULTIPART });
    await expectNothingLeft();
  });

  it('reads a quoted boundary', async () => {
    const text = Buffer.concat([
      Buffer.from(`--a:b c\r\n${fileHeader('filename="a.png"')}\r\n\r\n`),
      png,
      Buffer.from('\r\n--a:b c--\r\n'),
    ]);
    expect((await post(text, 'multipart/form-data; boundary="a:b c"')).status).toBe(201);
  });

  it('refuses a body whose boundary is not the declared one', async () => {
    const res = await post(
      body([[fileHeader('filename="a.png"'), png]]),
      'multipart/form-data; boundary=zz',
    );
    expect(res).toEqual({ status: 400, message: TRUNCATED_MESSAGE });
    await expectNothingLeft();
  });

  it('refuses a body cut inside the file', async () => {
    const whole = body([[fileHeader('filename="a.mp4"'), sample('mp4')]]);
    const res = await post(whole.subarray(0, 400));
    expect(res).toEqual({ status: 400, message: TRUNCATED_MESSAGE });
    await expectNothingLeft();
  });

  it('refuses a body that ends before its closing boundary', async () => {
    const res = await post(body([[fileHeader('filename="a.png"'), png]], false));
    expect(res).toEqual({ status: 400, message: TRUNCATED_MESSAGE });
    await expectNothingLeft();
  });

  it('refuses a part header of 100 KB', async () => {
    const res = await post(
      body([[`${fileHeader('filename="a.png"')}\r\nX-Pad: ${'y'.repeat(100 * 1024)}`, png]]),
    );
    expect(res).toEqual({ status: 400, message: BAD_HEADER_MESSAGE });
    await expectNothingLeft();
  });

  it('refuses 10,000 tiny fields before the file', async () => {
    const fields = Array.from({ length: 10_000 }, (_, i): [string, string] => [
      `Content-Disposition: form-data; name="f${i}"`,
      'x',
    ]);
    const res = await post(body([...fields, [fileHeader('filename="a.png"'), png]]));
    expect(res).toEqual({ status: 400, message: TOO_MANY_PARTS_MESSAGE });
    await expectNothingLeft();
  });

  it('leaves nothing behind a broken part header and a body without its closing boundary', async () => {
    const res = await post(
      body(
        [
          [fileHeader('filename="a\r\nb.png"'), '<svg/>'],
          [fileHeader('filename="x.png"'), png],
        ],
        false,
      ),
    );
    expect(res).toEqual({ status: 400, message: BAD_HEADER_MESSAGE });
    await expectNothingLeft();
  });

  it('answers, and leaves no temporary file, when the client goes away mid-file', async () => {
    const head = body([[fileHeader('filename="a.mp4"'), sample('mp4')]], false);
    const res = await post(droppedStream(head.subarray(0, head.length - 100)));
    expect(res).toEqual({ status: 400, message: INTERRUPTED_MESSAGE });
    await expectNothingLeft();
  });
});

describe('temporary files at start', () => {
  it('removes what uploads of an earlier run left, and nothing else', async () => {
    const temp = path.join(dataDir, 'tmp', 'uploads');
    fs.mkdirSync(temp, { recursive: true });
    const longAgo = new Date(Date.now() - 2 * BODY_IDLE_MS - 1000);
    for (const name of ['0f1e2d3c.part', '4b5a6978.part', 'keep.txt', 'in-flight.part']) {
      fs.writeFileSync(path.join(temp, name), 'x');
      if (name !== 'in-flight.part') fs.utimesSync(path.join(temp, name), longAgo, longAgo);
    }
    // in-flight.part: written a moment ago, as by another process's upload under way.
    expect(await sweepUploadTemps()).toBe(2);
    expect(fs.readdirSync(temp).sort()).toEqual(['in-flight.part', 'keep.txt']);
    expect(await sweepUploadTemps(Date.now() + 2 * BODY_IDLE_MS + 1000)).toBe(1);
    fs.rmSync(path.join(temp, 'keep.txt'));
    expect(await sweepUploadTemps()).toBe(0);
  });
});
