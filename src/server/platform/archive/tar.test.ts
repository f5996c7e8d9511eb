import { Readable } from 'node:stream';
import { Header } from 'tar';
import { describe, expect, it } from 'vitest';
import { type TarEntry, TarFormatError, readTar, tarStream } from './tar';

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The bytes, handed over in awkward slices, as a network would. */
function sliced(bytes: Buffer, size: number): AsyncIterable<Uint8Array> {
  const slices: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) slices.push(bytes.subarray(i, i + size));
  return Readable.from(slices);
}

async function entriesOf(bytes: Buffer, slice = 7): Promise<{ path: string; body: string }[]> {
  const out: { path: string; body: string }[] = [];
  for await (const entry of readTar(sliced(bytes, slice)))
    out.push({ path: entry.path, body: (await collect(entry.body)).toString() });
  return out;
}

describe('tar writer and reader', () => {
  it('round-trips files of any size, long names included, streaming each body', async () => {
    const long = `files/images/${'a'.repeat(120)}/${'b'.repeat(200)}.png`;
    const body = () => Readable.from([Buffer.from('first '), Buffer.from('second')]);
    const bytes = await collect(
      tarStream([
        { path: 'manifest.json', size: 2, body: Buffer.from('{}') },
        { path: 'empty.jsonl', size: 0, body: new Uint8Array() },
        { path: long, size: 12, body: body() },
        { path: 'big.bin', size: 1500, body: Buffer.alloc(1500, 120) },
      ]),
    );
    expect(bytes.length % 512).toBe(0);
    const entries = await entriesOf(bytes);
    expect(entries.map((e) => e.path)).toEqual(['manifest.json', 'empty.jsonl', long, 'big.bin']);
    expect(entries[2]!.body).toBe('first second');
    expect(entries[3]!.body).toBe('x'.repeat(1500));
  });

  it('skips what a reader leaves unread', async () => {
    const bytes = await collect(
      tarStream([
        { path: 'a', size: 1000, body: Buffer.alloc(1000, 97) },
        { path: 'b', size: 1, body: Buffer.from('b') },
      ]),
    );
    const paths: string[] = [];
    for await (const entry of readTar(sliced(bytes, 100))) paths.push(entry.path);
    expect(paths).toEqual(['a', 'b']);
  });

  it('refuses a body that does not match its declared size', async () => {
    await expect(
      collect(tarStream([{ path: 'a', size: 5, body: Buffer.from('abc') }])),
    ).rejects.toThrow(/fewer bytes/);
  });

  it('refuses a cut archive, a broken header and anything but regular files', async () => {
    const bytes = await collect(tarStream([{ path: 'a', size: 600, body: Buffer.alloc(600) }]));
    await expect(entriesOf(bytes.subarray(0, 700))).rejects.toThrow(TarFormatError);
    await expect(entriesOf(bytes.subarray(0, 1536))).rejects.toThrow(/終わりの印がありません/);

    const broken = Buffer.from(bytes);
    broken[10] = 65;
    await expect(entriesOf(broken)).rejects.toThrow(/ヘッダーが壊れています/);

    const link = Buffer.alloc(1024 + 512);
    new Header({ path: 'evil', type: 'SymbolicLink', linkpath: '/etc/passwd', size: 0 }).encode(
      link,
      0,
    );
    await expect(entriesOf(link)).rejects.toThrow(/通常のファイル以外/);
  });

  it('reads entries lazily: nothing past the current entry is pulled', async () => {
    const bytes = await collect(
      tarStream([
        { path: 'a', size: 1, body: Buffer.from('a') },
        { path: 'b', size: 1, body: Buffer.from('b') },
      ]),
    );
    let pulled = 0;
    const chunks = [bytes.subarray(0, 1024), bytes.subarray(1024)];
    const counting: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: () => {
          const value = chunks[pulled++];
          return Promise.resolve(value ? { done: false, value } : { done: true, value: undefined });
        },
      }),
    };
    const reader = readTar(counting);
    const first = (await reader.next()).value as TarEntry;
    expect(first.path).toBe('a');
    expect(pulled).toBe(1);
  });
});
