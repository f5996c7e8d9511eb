import { describe, expect, it } from 'vitest';
import { MultipartError, MultipartReader, multipartBoundary } from './multipart';

/** A stream of the bytes in pieces of `size` (1 = every possible split of a boundary). */
function streamOf(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset + size));
      offset += size;
    },
  });
}

async function encode(form: FormData) {
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const boundary = multipartBoundary(request.headers.get('content-type'));
  return { boundary: boundary!, bytes: new Uint8Array(await request.arrayBuffer()) };
}

async function readAll(reader: MultipartReader) {
  const parts: {
    name: string | null;
    filename: string | null;
    type: string | null;
    body: string;
  }[] = [];
  for (let part = await reader.nextPart(); part; part = await reader.nextPart()) {
    const chunks: Uint8Array[] = [];
    for (let c = await reader.readChunk(); c; c = await reader.readChunk())
      chunks.push(Uint8Array.from(c));
    parts.push({
      name: part.name,
      filename: part.filename,
      type: part.contentType,
      body: Buffer.concat(chunks).toString('latin1'),
    });
  }
  return parts;
}

describe('multipartBoundary', () => {
  it('reads plain and quoted boundaries of multipart/form-data only', () => {
    expect(multipartBoundary('multipart/form-data; boundary=abc123')).toBe('abc123');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe('a b:c');
    expect(multipartBoundary('multipart/mixed; boundary=abc')).toBeNull();
    expect(multipartBoundary('application/json')).toBeNull();
    expect(multipartBoundary(null)).toBeNull();
    expect(multipartBoundary(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeNull();
  });
});

describe('MultipartReader', () => {
  const body = '\r\n--not-the-boundary\r\n' + 'x'.repeat(300) + '\r\n-';
  const form = new FormData();
  form.append('title', 'タイトル');
  form.append('file', new Blob([body], { type: 'image/png' }), 'a "quoted" name.png');
  form.append('after', 'z');

  it.each([1, 2, 7, 64, 100_000])('reads every part with pieces of %i bytes', async (size) => {
    const { boundary, bytes } = await encode(form);
    const parts = await readAll(new MultipartReader(streamOf(bytes, size).getReader(), boundary));
    expect(parts).toEqual([
      {
        name: 'title',
        filename: null,
        type: null,
        body: Buffer.from('タイトル').toString('latin1'),
      },
      { name: 'file', filename: 'a %22quoted%22 name.png', type: 'image/png', body },
      { name: 'after', filename: null, type: null, body: 'z' },
    ]);
  });

  it('skips the rest of a part when asked for the next one', async () => {
    const { boundary, bytes } = await encode(form);
    const reader = new MultipartReader(streamOf(bytes, 5).getReader(), boundary);
    expect((await reader.nextPart())?.name).toBe('title');
    expect((await reader.nextPart())?.name).toBe('file');
    expect((await reader.nextPart())?.name).toBe('after');
    expect(await reader.nextPart()).toBeNull();
  });

  it('reads a hand-written body with a preamble and an empty part', async () => {
    const raw =
      'preamble\r\n--b\r\nContent-Disposition: form-data; name="empty"\r\n\r\n\r\n' +
      '--b\r\nContent-Disposition: form-data; name=file; filename=x.bin\r\n\r\nabc\r\n--b--\r\n';
    const parts = await readAll(
      new MultipartReader(streamOf(Buffer.from(raw), 3).getReader(), 'b'),
    );
    expect(parts.map((p) => [p.name, p.filename, p.body])).toEqual([
      ['empty', null, ''],
      ['file', 'x.bin', 'abc'],
    ]);
  });

  it.each([
    ['a body cut short', '--b\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc'],
    ['no boundary at all', 'just some bytes'],
    ['a part without Content-Disposition', '--b\r\nContent-Type: text/plain\r\n\r\nabc\r\n--b--'],
    ['endless headers', '--b\r\nX: ' + 'y'.repeat(20_000)],
  ])('refuses %s', async (_, raw) => {
    const reader = new MultipartReader(streamOf(Buffer.from(raw), 4).getReader(), 'b');
    await expect(readAll(reader)).rejects.toThrow(MultipartError);
  });

  it.each([
    ['an endless preamble', ''],
    ['endless headers', '--b\r\nX: '],
    ['endless white space after a boundary', '--b'],
  ])('gives up on %s after a bounded read', async (_, head) => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        const chunk = pulled === 0 && head ? Buffer.from(head) : Buffer.alloc(16 * 1024, 0x20);
        pulled += chunk.length;
        controller.enqueue(chunk);
      },
    });
    await expect(readAll(new MultipartReader(endless.getReader(), 'b'))).rejects.toThrow(
      MultipartError,
    );
    expect(pulled).toBeLessThan(128 * 1024);
  });
});
