import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { openArchive } from './read-archive';
import { tarStream } from './tar';

class Refused extends Error {}

const LIMITS = { totalBytes: 1024 * 1024, fileBytes: 1024 * 1024 };
const UNREADABLE = '（選び直してください）';

async function archiveBytes(): Promise<Buffer> {
  const entries = [
    { path: 'manifest.json', body: Buffer.from('{"format":"test"}') },
    { path: 'rows.jsonl', body: Buffer.from('{"n":1}\n'.repeat(300)) },
    { path: 'files/images/a.png', body: Buffer.alloc(3000, 7) },
  ].map((e) => ({ ...e, size: e.body.length }));
  const chunks: Uint8Array[] = [];
  for await (const chunk of tarStream(entries)) chunks.push(chunk);
  return gzipSync(Buffer.concat(chunks));
}

/** Reads every entry and the gzip stream to its end, as an import or a restore does. */
async function readWhole(source: Readable): Promise<string[]> {
  const archive = openArchive(source, {
    limits: LIMITS,
    fail: (message) => new Refused(message),
    unreadable: UNREADABLE,
  });
  try {
    const paths: string[] = [];
    for (let entry = await archive.next(); entry; entry = await archive.next()) {
      paths.push(entry.path);
      for await (const chunk of entry.body) void chunk;
    }
    await archive.finish();
    return paths;
  } catch (error) {
    archive.close();
    throw archive.refusal(error);
  }
}

describe('openArchive', () => {
  it('reads a whole archive to the end of its gzip stream', async () => {
    expect(await readWhole(Readable.from([await archiveBytes()]))).toEqual([
      'manifest.json',
      'rows.jsonl',
      'files/images/a.png',
    ]);
  });

  it('refuses a file cut anywhere, after the tar’s end too, in the caller’s words', async () => {
    const whole = await archiveBytes();
    // Every few bytes, and each of the last 16 (the gzip trailer: checksum and length).
    const cuts = new Set([0, 5, 10, 20, 100, 200, whole.length / 2, whole.length - 30]);
    for (let cut = 1; cut <= 16; cut++) cuts.add(whole.length - cut);
    for (const cut of cuts) {
      const error = await readWhole(Readable.from([whole.subarray(0, Math.floor(cut))])).catch(
        (e: unknown) => e,
      );
      expect(error, `cut at ${cut}`).toBeInstanceOf(Refused);
      expect((error as Error).message, `cut at ${cut}`).toMatch(
        new RegExp(
          `(途中で終わっています|終わりの印がありません|展開できません)。.*${UNREADABLE}$`,
        ),
      );
    }
  });

  it('refuses a damaged byte, and what is not gzip at all', async () => {
    const whole = await archiveBytes();
    for (const at of [0, 3, 20, Math.floor(whole.length / 2), whole.length - 6]) {
      const damaged = Buffer.from(whole);
      damaged[at]! ^= 0xff;
      await expect(readWhole(Readable.from([damaged])), `byte ${at}`).rejects.toBeInstanceOf(
        Refused,
      );
    }
    await expect(readWhole(Readable.from([Buffer.from('not an archive')]))).rejects.toThrow(
      /^gzip として展開できません。/,
    );
  });

  it('hands on a failure of the source itself, as it is', async () => {
    const whole = await archiveBytes();
    const failing = new Readable({
      read() {
        this.push(whole.subarray(0, 100));
        this.destroy(new Error('disk read failed'));
      },
    });
    await expect(readWhole(failing)).rejects.toThrow('disk read failed');
  });
});
