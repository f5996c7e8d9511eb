import { describe, expect, it } from 'vitest';
import { MAX_FORM_FIELDS, formAnswer, readFormInput } from './form-endpoint';
import { jsonNestsDeeperThan, readBodyBytes } from './read-body';
import { countedStream, streamedPost } from '@test-support/streams';

const URL_ = 'http://localhost:3000/api/contact';
const KB = 1024;
const post = (body: BodyInit, type: string, extra: Record<string, string> = {}) =>
  new Request(URL_, { method: 'POST', headers: { 'content-type': type, ...extra }, body });

describe('readFormInput', () => {
  it('reads JSON, urlencoded and multipart posts', async () => {
    expect(await readFormInput(post('{"a":"1","b":[true]}', 'application/json'), KB)).toEqual({
      ok: true,
      input: { a: '1', b: [true] },
    });
    expect(
      await readFormInput(
        post(
          'name=%E5%B1%B1%E7%94%B0&interests=a&interests=b',
          'application/x-www-form-urlencoded',
        ),
        KB,
      ),
    ).toEqual({ ok: true, input: { name: '山田', interests: ['a', 'b'] } });
    const form = new FormData();
    form.append('displayName', '花子');
    form.append('avatar', new Blob([new Uint8Array([1, 2, 3])]), 'a.png');
    const multipart = await readFormInput(new Request(URL_, { method: 'POST', body: form }), KB);
    expect(multipart.ok && multipart.input.displayName).toBe('花子');
    expect(multipart.ok && (multipart.input.avatar as File).size).toBe(3);
  });

  it('keeps the first value of a repeated name, and every value of a list field', async () => {
    const body =
      'title=a&interests=x&title=b&interests=y&interests=z&note=&title=c&constructor=k&toString=t';
    expect(await readFormInput(post(body, 'application/x-www-form-urlencoded'), KB)).toEqual({
      ok: true,
      input: { title: 'a', interests: ['x', 'y', 'z'], note: '', constructor: 'k', toString: 't' },
    });
  });

  it('keeps a field named __proto__ as a field: it never becomes the input’s prototype', async () => {
    const form = new FormData();
    form.append('__proto__', new Blob([new Uint8Array([1])], { type: 'image/png' }), 'evil.png');
    const read = await readFormInput(new Request(URL_, { method: 'POST', body: form }), KB);
    if (!read.ok) throw new Error('unread');
    // A schema's `name` or `type` must not come from a posted file's own name and type.
    expect(read.input.name).toBeUndefined();
    expect(read.input.type).toBeUndefined();
    expect(Object.keys(read.input)).toEqual(['__proto__']);
    const urlencoded = await readFormInput(
      post('__proto__=x&constructor=y', 'application/x-www-form-urlencoded'),
      KB,
    );
    expect(urlencoded.ok && Object.entries(urlencoded.input)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
  });

  // The fuzzer's stall: 393,000 pairs over 999 names (3 MB, a staff form's limit) took 7 s of
  // one core, every request waiting, when each name's values were looked up in the whole form.
  it(`refuses a form of more than ${MAX_FORM_FIELDS} fields with 413, whatever its size`, async () => {
    const fields = (n: number) => Array.from({ length: n }, (_, i) => `f${i % 999}=1`).join('&');
    const urlencoded = 'application/x-www-form-urlencoded';
    expect((await readFormInput(post(fields(MAX_FORM_FIELDS), urlencoded), 64 * KB)).ok).toBe(true);
    expect(await readFormInput(post(fields(MAX_FORM_FIELDS + 1), urlencoded), 64 * KB)).toEqual({
      ok: false,
      status: 413,
    });
    const form = new FormData();
    for (let i = 0; i <= MAX_FORM_FIELDS; i++) form.append('items', String(i));
    expect(
      await readFormInput(new Request(URL_, { method: 'POST', body: form }), 512 * KB),
    ).toEqual({ ok: false, status: 413 });
  });

  it('stops reading a chunked urlencoded body past the limit and answers 413', async () => {
    // No Content-Length: the size is only known by counting. 4 MB offered, 16 KB allowed.
    const body = countedStream({ head: 'message=', total: 4 * 1024 * KB });
    const read = await readFormInput(
      streamedPost(URL_, body.stream, { 'content-type': 'application/x-www-form-urlencoded' }),
      16 * KB,
    );
    expect(read).toEqual({ ok: false, status: 413 });
    expect(body.pulled()).toBeLessThan(16 * KB + 2 * 64 * KB);
  });

  it('stops a chunked JSON or multipart body the same way', async () => {
    for (const type of ['application/json', 'multipart/form-data; boundary=b']) {
      const body = countedStream({ head: '{"message":"', total: 4 * 1024 * KB });
      const read = await readFormInput(
        streamedPost(URL_, body.stream, { 'content-type': type }),
        16 * KB,
      );
      expect(read).toEqual({ ok: false, status: 413 });
      expect(body.pulled()).toBeLessThan(16 * KB + 2 * 64 * KB);
    }
  });

  it('refuses a declared Content-Length over the limit without reading a byte', async () => {
    const body = countedStream({ total: 1024 * KB });
    const read = await readFormInput(
      streamedPost(URL_, body.stream, {
        'content-type': 'application/json',
        'content-length': String(400 * 1024 * KB),
      }),
      16 * KB,
    );
    expect(read).toEqual({ ok: false, status: 413 });
    expect(body.pulled()).toBeLessThanOrEqual(64 * KB); // at most what a stream pre-reads
  });

  it('answers 400 to JSON nested deeper than a form needs, before a recursive walk sees it', async () => {
    const deep = `{"displayName":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(await readFormInput(post(deep, 'application/json'), 16 * KB)).toEqual({
      ok: false,
      status: 400,
    });
  });

  it('answers 400 to what is not a form: other types, broken JSON, invalid UTF-8, a JSON list', async () => {
    const bad = { ok: false, status: 400 };
    expect(await readFormInput(post('a=1', 'text/plain'), KB)).toEqual(bad);
    expect(await readFormInput(post('{"a":', 'application/json'), KB)).toEqual(bad);
    expect(await readFormInput(post('[1]', 'application/json'), KB)).toEqual(bad);
    expect(
      await readFormInput(post(new Uint8Array([0x7b, 0xff, 0x7d]), 'application/json'), KB),
    ).toEqual(bad);
    expect(await readFormInput(post('--x', 'multipart/form-data; boundary=b'), KB)).toEqual(bad);
  });

  it('reads text/plain JSON only when asked to (the beacon)', async () => {
    const beacon = () => post('{"path":"/"}', 'text/plain;charset=UTF-8');
    expect((await readFormInput(beacon(), KB)).ok).toBe(false);
    expect(await readFormInput(beacon(), KB, { plainTextJson: true })).toEqual({
      ok: true,
      input: { path: '/' },
    });
  });
});

describe('readBodyBytes', () => {
  it('reads a body within the limit whole', async () => {
    const read = await readBodyBytes(post('abc', 'text/plain'), 3);
    expect(read.ok && new TextDecoder().decode(read.bytes)).toBe('abc');
    expect(await readBodyBytes(post('abcd', 'text/plain'), 3)).toEqual({ ok: false, status: 413 });
  });
});

describe('jsonNestsDeeperThan', () => {
  it('counts brackets outside strings only', () => {
    expect(jsonNestsDeeperThan('[[1]]', 2)).toBe(false);
    expect(jsonNestsDeeperThan('[[[1]]]', 2)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":{"b":{}}}', 2)).toBe(true);
    expect(jsonNestsDeeperThan('["[[[[", "\\"[[[["]', 1)).toBe(false);
    expect(jsonNestsDeeperThan('[1],[2],[3]', 1)).toBe(false);
  });
});

describe('formAnswer', () => {
  const form = () => post('name=1', 'application/x-www-form-urlencoded');

  it('sends back to a form page whose address holds other than ASCII, percent-encoded', () => {
    // The fuzzer's find: a page built from the path's parameter (`#org-記事`), a 500 before.
    const refused = formAnswer(
      form(),
      { ok: false, status: 413 },
      {},
      {
        formPage: '/admin/organizations#org-記事',
      },
    );
    expect(refused.status).toBe(303);
    expect(refused.headers.get('location')).toBe('/admin/organizations#org-%E8%A8%98%E4%BA%8B');
    const done = formAnswer(
      form(),
      { ok: true, redirectTo: '/posts/日用 品?q=%E3%83%87\ud800' },
      {},
      {
        formPage: '/',
      },
    );
    expect(done.headers.get('location')).toBe(
      '/posts/%E6%97%A5%E7%94%A8%20%E5%93%81?q=%E3%83%87%EF%BF%BD',
    );
  });
});
