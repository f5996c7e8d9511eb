import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { countedStream, streamedPost } from '@test-support/streams';
import { handleContentApi } from './http';
import { type ApiCall, apiClient } from '@test-support/content-api-client';

process.env.CMS_RATE_LIMIT_WRITE = '100000';

/** How the content API's write handler reads its body: bounded while streaming, never deep. */
describe('content API request bodies', () => {
  const database = testDatabase({ global: false });
  let api: ApiCall;
  let key: string;

  beforeAll(async () => {
    ({ call: api, key } = await apiClient(database.db));
  });

  const writeStreamed = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
    handleContentApi(
      streamedPost('http://localhost/api/v1/categories', body, {
        'content-type': 'application/json',
        'x-microcms-api-key': key,
        ...headers,
      }),
      'categories',
      undefined,
      database.db,
    );

  it('answers 400 to JSON nested 100,000 deep instead of overflowing the stack (a 500)', async () => {
    const deep = `{"name":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const response = await api('POST', 'categories', { rawBody: deep });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: 'Request body is too deeply nested.' });
    const list = await api('POST', 'categories', { rawBody: '['.repeat(100_000) });
    expect(list.status).toBe(400);
  });

  it('stops reading a chunked body past the limit and answers 413', async () => {
    const body = countedStream({ head: '{"name":"', total: 400 * 1024 * 1024 });
    const response = await writeStreamed(body.stream);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: 'Request body is too large.' });
    expect(body.pulled()).toBeLessThan(300_000 + 2 * 64 * 1024);
  });

  it('refuses a declared Content-Length over the limit before reading', async () => {
    const body = countedStream({ total: 1024 * 1024 });
    const response = await writeStreamed(body.stream, {
      'content-length': String(400 * 1024 * 1024),
    });
    expect(response.status).toBe(413);
    expect(body.pulled()).toBeLessThanOrEqual(64 * 1024);
  });

  it('still takes an ordinary write, and answers 400 to invalid UTF-8', async () => {
    const created = await api('POST', 'categories', { body: { name: '建築' } });
    expect(created.status).toBe(201);
    const invalid = await handleContentApi(
      new Request('http://localhost/api/v1/categories', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-microcms-api-key': key },
        body: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]),
      }),
      'categories',
      undefined,
      database.db,
    );
    expect(invalid.status).toBe(400);
  });
});
