import { z } from '@/lib/zod';
import {
  CONTENT_GET_ALL_PAGE_SIZE,
  CONTENT_MAX_RETRIES,
  CONTENT_PAGE_PAUSE_MS,
  CONTENT_PAGE_SIZE,
  CONTENT_RETRY_MIN_TIMEOUT_MS,
  FREE_PLAN_POST_LIMIT,
  type ContentClientOptions,
  type ContentQueries,
  contentRetryDelay,
  createContentClient,
  getFreePlanPostIds,
  isContentRequestError,
  listResponseSchema,
  systemFieldsSchema,
} from './client';

const BASE = 'http://cms.test/api/v1';
const KEY = 'test-key';
const STAMP = '2024-01-02T03:04:05.678Z';

type Call = { url: URL; rawUrl: string; method: string; headers: Headers; body: string | null };
type Responder = (call: Call, index: number) => Response | Promise<Response>;

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

function item(id: string, extra: Record<string, unknown> = {}) {
  return { id, createdAt: STAMP, updatedAt: STAMP, publishedAt: STAMP, revisedAt: STAMP, ...extra };
}

function setup(responder: Responder = () => json({}), options: Partial<ContentClientOptions> = {}) {
  const calls: Call[] = [];
  const fetch = vi.fn(async (input: string | URL | Request, init?: RequestInit) => {
    const rawUrl =
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const call: Call = {
      url: new URL(rawUrl),
      rawUrl,
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? init.body : null,
    };
    calls.push(call);
    return responder(call, calls.length - 1);
  });
  const sleep = vi.fn((_ms: number) => Promise.resolve());
  const onRetry = vi.fn();
  const client = createContentClient({
    baseUrl: BASE,
    apiKey: KEY,
    fetch,
    sleep,
    random: () => 0.5,
    onRetry,
    ...options,
  });
  return { client, calls, fetch, sleep, onRetry };
}

/** A list endpoint holding `total` rows that serves limit/offset honestly (or short, if told). */
function listServer(total: number, { rowsPerPage }: { rowsPerPage?: number } = {}): Responder {
  return (call, index) => {
    // A paging loop that never ends would otherwise starve the event loop and hang the run.
    if (index > 20) throw new Error('runaway paging');
    const limit = Number(call.url.searchParams.get('limit') ?? 10);
    const offset = Number(call.url.searchParams.get('offset') ?? 0);
    const count = Math.max(0, Math.min(limit, rowsPerPage ?? limit, total - offset));
    const contents = Array.from({ length: count }, (_, i) => item(`id-${offset + i}`));
    return json({ contents, totalCount: total, offset, limit });
  };
}

const params = (call: Call | undefined) => Object.fromEntries(call?.url.searchParams ?? []);

describe('constants', () => {
  it('match SPEC §7 and microcms-js-sdk v3.5.1', () => {
    expect(CONTENT_PAGE_SIZE).toBe(100);
    expect(CONTENT_GET_ALL_PAGE_SIZE).toBe(1000);
    expect(CONTENT_PAGE_PAUSE_MS).toBe(1000);
    expect(FREE_PLAN_POST_LIMIT).toBe(3);
    expect(CONTENT_MAX_RETRIES).toBe(2);
    expect(CONTENT_RETRY_MIN_TIMEOUT_MS).toBe(5000);
  });

  it('computes the async-retry waits', () => {
    expect(contentRetryDelay(0, () => 0)).toBe(5000);
    expect(contentRetryDelay(0, () => 0.5)).toBe(7500);
    expect(contentRetryDelay(1, () => 0.5)).toBe(15000);
    expect(contentRetryDelay(1, () => 0.99999)).toBe(20000);
  });
});

describe('createContentClient', () => {
  it('requires baseUrl and apiKey', () => {
    const message = 'parameter is required (check serviceDomain and apiKey)';
    expect(() => createContentClient({ baseUrl: '', apiKey: KEY })).toThrow(message);
    expect(() => createContentClient({ baseUrl: BASE, apiKey: '' })).toThrow(message);
    expect(() => createContentClient({ baseUrl: BASE, apiKey: 1 as unknown as string })).toThrow(
      'parameter is not string',
    );
  });

  it('uses the global fetch, looked up per call, when none is injected', async () => {
    const original = globalThis.fetch;
    const spy = vi.fn(() => Promise.resolve(json({ ok: true })));
    globalThis.fetch = spy;
    try {
      const client = createContentClient({ baseUrl: `${BASE}/`, apiKey: KEY });
      await expect(client.get({ endpoint: 'settings' })).resolves.toEqual({ ok: true });
      expect(spy).toHaveBeenCalledWith(`${BASE}/settings`, expect.anything());
    } finally {
      globalThis.fetch = original;
    }
  });
});

describe('reads', () => {
  it('get builds list, detail and object URLs with the key header', async () => {
    const { client, calls } = setup(() => json({ value: 1 }));
    await expect(client.get({ endpoint: 'posts' })).resolves.toEqual({ value: 1 });
    await client.get({ endpoint: 'posts', contentId: 'abc' });
    await client.get({
      endpoint: 'posts',
      queries: { limit: 10, fields: ['id', 'title'], draftKey: undefined, depth: 0 },
    });

    expect(calls.map((c) => c.rawUrl)).toEqual([
      `${BASE}/posts`,
      `${BASE}/posts/abc`,
      `${BASE}/posts?limit=10&fields=id%2Ctitle&depth=0`,
    ]);
    for (const call of calls) {
      expect(call.method).toBe('GET');
      expect(call.headers.get('X-MICROCMS-API-KEY')).toBe(KEY);
      expect(call.headers.get('Content-Type')).toBeNull();
      expect(call.body).toBeNull();
    }
  });

  it('serialises every query key like the SDK (form encoding, comma lists)', async () => {
    const { client, calls } = setup(() => json({ contents: [], totalCount: 0 }));
    const queries: ContentQueries = {
      draftKey: 'dk',
      limit: 5,
      offset: 10,
      orders: '-publishedAt',
      fields: 'id,title',
      q: 'デザイン 展示',
      depth: 2,
      ids: ['a', 'b'],
      filters: 'category[equals]abc[and](title[contains]x)',
      richEditorFormat: 'html',
      status: 'draft',
    };
    await client.getList({ endpoint: 'posts', queries });
    const call = calls[0];
    expect(call?.url.pathname).toBe('/api/v1/posts');
    expect(call?.rawUrl).toContain('q=%E3%83%87%E3%82%B6%E3%82%A4%E3%83%B3+%E5%B1%95%E7%A4%BA');
    expect(call?.rawUrl).toContain(
      'filters=category%5Bequals%5Dabc%5Band%5D%28title%5Bcontains%5Dx%29',
    );
    expect(params(call)).toEqual({
      draftKey: 'dk',
      limit: '5',
      offset: '10',
      orders: '-publishedAt',
      fields: 'id,title',
      q: 'デザイン 展示',
      depth: '2',
      ids: 'a,b',
      filters: 'category[equals]abc[and](title[contains]x)',
      richEditorFormat: 'html',
      status: 'draft',
    });
  });

  it('rejects queries that are not an object', async () => {
    const { client, fetch } = setup();
    await expect(
      client.get({ endpoint: 'posts', queries: 'limit=1' as unknown as ContentQueries }),
    ).rejects.toThrow('queries is not object');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('getList, getListDetail and getObject hit the right paths', async () => {
    const { client, calls } = setup((call) =>
      call.url.pathname.endsWith('/abc') ? json(item('abc')) : json({ contents: [] }),
    );
    await client.getList({ endpoint: 'posts', queries: { limit: 3 } });
    await expect(
      client.getListDetail({ endpoint: 'posts', contentId: 'abc', queries: { draftKey: 'k' } }),
    ).resolves.toEqual(item('abc'));
    await client.getObject({ endpoint: 'settings', queries: { depth: 1 } });
    expect(calls.map((c) => `${c.method} ${c.rawUrl}`)).toEqual([
      `GET ${BASE}/posts?limit=3`,
      `GET ${BASE}/posts/abc?draftKey=k`,
      `GET ${BASE}/settings?depth=1`,
    ]);
  });

  it('passes customRequestInit through but keeps method and headers its own', async () => {
    const { client, fetch } = setup(() => json({}));
    const controller = new AbortController();
    await client.getList({
      endpoint: 'posts',
      customRequestInit: {
        cache: 'no-store',
        signal: controller.signal,
        ...({ method: 'DELETE', headers: { 'X-MICROCMS-API-KEY': 'other' } } as object),
      },
    });
    const init = fetch.mock.calls[0]?.[1];
    expect(init?.cache).toBe('no-store');
    expect(init?.signal).toBe(controller.signal);
    expect(init?.method).toBe('GET');
    expect(new Headers(init?.headers).get('X-MICROCMS-API-KEY')).toBe(KEY);
  });
});

describe('writes', () => {
  it('create POSTs JSON, or PUTs with a contentId, with status flags', async () => {
    const { client, calls } = setup(() => json({ id: 'new' }, 201));
    await expect(client.create({ endpoint: 'posts', content: { title: 'a' } })).resolves.toEqual({
      id: 'new',
    });
    await client.create({ endpoint: 'posts', contentId: 'given', content: { title: 'b' } });
    await client.create({ endpoint: 'posts', content: { title: 'c' }, isDraft: true });
    await client.create({ endpoint: 'posts', content: { title: 'd' }, isClosed: true });

    expect(calls.map((c) => `${c.method} ${c.rawUrl}`)).toEqual([
      `POST ${BASE}/posts`,
      `PUT ${BASE}/posts/given`,
      `POST ${BASE}/posts?status=draft`,
      `POST ${BASE}/posts?status=closed`,
    ]);
    expect(calls.map((c) => c.body)).toEqual([
      '{"title":"a"}',
      '{"title":"b"}',
      '{"title":"c"}',
      '{"title":"d"}',
    ]);
    for (const call of calls) {
      expect(call.headers.get('Content-Type')).toBe('application/json');
      expect(call.headers.get('X-MICROCMS-API-KEY')).toBe(KEY);
    }
  });

  it('create refuses isDraft together with isClosed without calling the service', async () => {
    const { client, fetch } = setup();
    await expect(
      client.create({ endpoint: 'posts', content: {}, isDraft: true, isClosed: true }),
    ).rejects.toThrow('isClosed and isDraft cannot be true at the same time');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('update PATCHes a list item or an object API', async () => {
    const { client, calls } = setup(() => json({ id: 'x' }));
    await expect(
      client.update({ endpoint: 'posts', contentId: 'x', content: { title: 'n' } }),
    ).resolves.toEqual({ id: 'x' });
    await client.update({ endpoint: 'posts', contentId: 'x', content: {}, isDraft: true });
    await client.update({ endpoint: 'settings', content: { siteName: 'AXIS' } });
    expect(calls.map((c) => `${c.method} ${c.rawUrl} ${c.body}`)).toEqual([
      `PATCH ${BASE}/posts/x {"title":"n"}`,
      `PATCH ${BASE}/posts/x?status=draft {}`,
      `PATCH ${BASE}/settings {"siteName":"AXIS"}`,
    ]);
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
  });

  it('delete sends DELETE and does not parse the plain-text answer', async () => {
    const { client, calls } = setup(() => new Response('Accepted', { status: 202 }));
    await expect(client.delete({ endpoint: 'posts', contentId: 'x' })).resolves.toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('DELETE');
    expect(calls[0]?.rawUrl).toBe(`${BASE}/posts/x`);
    expect(calls[0]?.body).toBeNull();
    expect(calls[0]?.headers.get('X-MICROCMS-API-KEY')).toBe(KEY);
  });
});

describe('missing arguments', () => {
  it('rejects endpoint is required on every method without calling the service', async () => {
    const { client, fetch } = setup();
    const attempts: Promise<unknown>[] = [
      client.get({ endpoint: '' }),
      client.getList({ endpoint: '' }),
      client.getListDetail({ endpoint: '', contentId: 'x' }),
      client.getObject({ endpoint: '' }),
      client.getAllContentIds({ endpoint: '' }),
      client.getAllContents({ endpoint: '' }),
      client.getAll({ endpoint: '' }),
      client.create({ endpoint: '', content: {} }),
      client.update({ endpoint: '', content: {} }),
      client.delete({ endpoint: '', contentId: 'x' }),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toThrow('endpoint is required');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('rejects contentId is required on getListDetail and delete', async () => {
    const { client, fetch } = setup();
    await expect(client.getListDetail({ endpoint: 'posts', contentId: '' })).rejects.toThrow(
      'contentId is required',
    );
    await expect(client.delete({ endpoint: 'posts', contentId: '' })).rejects.toThrow(
      'contentId is required',
    );
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('errors and retry', () => {
  it('formats the status and the server message exactly like the SDK', async () => {
    const { client } = setup(() => json({ message: 'X-MICROCMS-API-KEY header is invalid.' }, 401));
    const error: unknown = await client.getList({ endpoint: 'posts' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      'fetch API response status: 401\n  message is `X-MICROCMS-API-KEY header is invalid.`',
    );
  });

  it('gives the bare status for a 404 without a body', async () => {
    const { client } = setup(() => new Response(null, { status: 404 }));
    await expect(client.getListDetail({ endpoint: 'posts', contentId: 'nope' })).rejects.toThrow(
      /^fetch API response status: 404$/,
    );
  });

  it('attaches non-enumerable status and a draftKey-masked url', async () => {
    const { client } = setup(() => new Response(null, { status: 404 }));
    const error: unknown = await client
      .get({ endpoint: 'posts', contentId: 'a', queries: { draftKey: 'secret', depth: 1 } })
      .catch((e: unknown) => e);
    expect(isContentRequestError(error)).toBe(true);
    if (!isContentRequestError(error)) return;
    expect(error.status).toBe(404);
    expect(error.url).toBe(`${BASE}/posts/a?draftKey=***&depth=1`);
    expect(Object.keys(error)).toEqual([]);
    expect(JSON.stringify(error)).toBe('{}');
    expect(isContentRequestError(new Error('plain'))).toBe(false);
  });

  it.each([400, 401, 404])('does not retry a %i even with retry on', async (status) => {
    const { client, fetch, sleep } = setup(() => json({ message: 'GET is forbidden.' }, status), {
      retry: true,
    });
    await expect(client.getList({ endpoint: 'posts' })).rejects.toThrow(
      `fetch API response status: ${status}\n  message is \`GET is forbidden.\``,
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it.each([429, 500, 503])('retries a %i twice (3 attempts) with retry on', async (status) => {
    const { client, fetch, sleep, onRetry } = setup(() => new Response(null, { status }), {
      retry: true,
    });
    await expect(client.getList({ endpoint: 'posts' })).rejects.toThrow(
      new RegExp(`^fetch API response status: ${status}$`),
    );
    expect(fetch).toHaveBeenCalledTimes(3);
    // random() = 0.5: (1 + 0.5) * 5000 * 2^attempt
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([7500, 15000]);
    expect(onRetry.mock.calls.map(([, n]: unknown[]) => n)).toEqual([1, 2]);
  });

  it.each([429, 500])('makes one attempt for a %i with retry off', async (status) => {
    const { client, fetch, sleep } = setup(() =>
      json({ message: 'Too many requests, please try again later.' }, status),
    );
    await expect(client.getList({ endpoint: 'posts' })).rejects.toThrow(
      `fetch API response status: ${status}\n  message is \`Too many requests, please try again later.\``,
    );
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('succeeds when a retry succeeds, writes included', async () => {
    const { client, fetch } = setup(
      (_call, index) =>
        index === 0 ? new Response(null, { status: 502 }) : json({ id: 'p' }, 201),
      { retry: true },
    );
    await expect(client.create({ endpoint: 'posts', content: { a: 1 } })).resolves.toEqual({
      id: 'p',
    });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('reports a thrown fetch as a network error and retries it', async () => {
    const { client, fetch } = setup(
      () => {
        throw new TypeError('fetch failed');
      },
      { retry: true },
    );
    const error: unknown = await client.getList({ endpoint: 'posts' }).catch((e: unknown) => e);
    expect((error as Error).message).toBe('Network Error.\n  Details: fetch failed');
    expect(isContentRequestError(error)).toBe(true);
    if (isContentRequestError(error)) {
      expect(error.status).toBeUndefined();
      expect(error.url).toBe(`${BASE}/posts`);
      expect(error.originalError).toBeInstanceOf(TypeError);
    }
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('makes one attempt on a network error with retry off', async () => {
    const { client, fetch } = setup(() => Promise.reject(new Error('socket hang up')));
    await expect(client.get({ endpoint: 'posts' })).rejects.toThrow(
      'Network Error.\n  Details: socket hang up',
    );
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  describe('with real timers faked', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('waits at least 5000 ms before the first retry with the default sleep', async () => {
      vi.useFakeTimers();
      const fetch = vi.fn((): Promise<Response> =>
        Promise.resolve(new Response(null, { status: 500 })),
      );
      fetch.mockImplementationOnce(() => Promise.resolve(new Response(null, { status: 500 })));
      fetch.mockImplementationOnce(() => Promise.resolve(json({ ok: true })));
      const client = createContentClient({
        baseUrl: BASE,
        apiKey: KEY,
        retry: true,
        fetch,
        random: () => 0,
        onRetry: () => undefined,
      });
      const result = client.get({ endpoint: 'posts' });

      await vi.advanceTimersByTimeAsync(4999);
      expect(fetch).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetch).toHaveBeenCalledTimes(2);
      await expect(result).resolves.toEqual({ ok: true });
    });
  });
});

describe('list-everything helpers', () => {
  it('getAllContentIds reads totalCount with limit=0, then pages by 100 with 1 s pauses', async () => {
    const { client, calls, sleep } = setup(listServer(250));
    const ids = await client.getAllContentIds({
      endpoint: 'posts',
      filters: 'category[equals]a',
      orders: '-publishedAt',
    });

    expect(ids).toHaveLength(250);
    expect(ids[0]).toBe('id-0');
    expect(ids[249]).toBe('id-249');
    expect(calls.map(params)).toEqual([
      {
        filters: 'category[equals]a',
        orders: '-publishedAt',
        limit: '0',
        fields: 'id',
        depth: '0',
      },
      ...[0, 100, 200].map((offset) => ({
        filters: 'category[equals]a',
        orders: '-publishedAt',
        limit: '100',
        fields: 'id',
        depth: '0',
        offset: String(offset),
      })),
    ]);
    expect(sleep.mock.calls).toEqual([[1000], [1000]]);
  });

  it('getAllContentIds collects an alternate string field and rejects non-strings', async () => {
    const { client, calls } = setup(() =>
      json({ contents: [{ slug: 'first' }], totalCount: 1, offset: 0, limit: 100 }),
    );
    await expect(
      client.getAllContentIds({ endpoint: 'posts', alternateField: 'slug', draftKey: 'dk' }),
    ).resolves.toEqual(['first']);
    expect(params(calls[1])).toMatchObject({ fields: 'slug', draftKey: 'dk' });

    const bad = setup(() => json({ contents: [{ slug: 7 }], totalCount: 1 }));
    await expect(
      bad.client.getAllContentIds({ endpoint: 'posts', alternateField: 'slug' }),
    ).rejects.toThrow('The value of the field specified by `alternateField` is not a string.');
  });

  it('getAllContents keeps the caller queries and pages by 100', async () => {
    const { client, calls, sleep } = setup(listServer(201));
    const contents = await client.getAllContents<{ title?: string }>({
      endpoint: 'posts',
      queries: { filters: 'x[exists]', depth: 0 },
    });
    expect(contents.map((c) => c.id)).toEqual(Array.from({ length: 201 }, (_, i) => `id-${i}`));
    expect(calls.map(params)).toEqual([
      { filters: 'x[exists]', depth: '0', limit: '0' },
      { filters: 'x[exists]', depth: '0', limit: '100', offset: '0' },
      { filters: 'x[exists]', depth: '0', limit: '100', offset: '100' },
      { filters: 'x[exists]', depth: '0', limit: '100', offset: '200' },
    ]);
    expect(sleep.mock.calls).toEqual([[1000], [1000]]);
  });

  it('makes only the limit=0 request when there is nothing to list', async () => {
    const { client, calls, sleep } = setup(listServer(0));
    await expect(client.getAllContents({ endpoint: 'posts' })).resolves.toEqual([]);
    expect(calls).toHaveLength(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  it('getAll pages by 1000', async () => {
    const { client, calls, sleep } = setup(listServer(2500));
    const contents = await client.getAll({ endpoint: 'posts', queries: { fields: 'id' } });
    expect(contents).toHaveLength(2500);
    expect(calls.map(params)).toEqual([
      { fields: 'id', limit: '0' },
      { fields: 'id', limit: '1000', offset: '0' },
      { fields: 'id', limit: '1000', offset: '1000' },
      { fields: 'id', limit: '1000', offset: '2000' },
    ]);
    expect(sleep.mock.calls).toEqual([[1000], [1000]]);
  });

  it('ends when the server returns fewer rows than its totalCount (v3.5.1 loop)', async () => {
    const { client, calls } = setup(listServer(250, { rowsPerPage: 50 }));
    const ids = await client.getAllContentIds({ endpoint: 'posts' });
    expect(ids).toHaveLength(150);
    expect(calls).toHaveLength(4);
    const again = setup(listServer(250, { rowsPerPage: 0 }));
    await expect(again.client.getAllContents({ endpoint: 'posts' })).resolves.toEqual([]);
    expect(again.calls).toHaveLength(4);
  });
});

describe('getFreePlanPostIds', () => {
  it('lists 3 post ids that are not public previews', async () => {
    const { client, calls } = setup(() =>
      json({
        contents: [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
        totalCount: 9,
        offset: 0,
        limit: 3,
      }),
    );
    await expect(getFreePlanPostIds(client)).resolves.toEqual(['a', 'b', 'c']);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url.pathname).toBe('/api/v1/posts');
    expect(calls[0]?.url.search).toBe(
      '?limit=3&fields=id&filters=isPublicPreview%5Bnot_equals%5Dtrue',
    );
    expect(params(calls[0])).toEqual({
      limit: '3',
      fields: 'id',
      filters: 'isPublicPreview[not_equals]true',
    });
  });
});

describe('zod parsing', () => {
  const post = z.object({ title: z.string() });

  it('types and strips list items, keeping the system fields', async () => {
    const { client } = setup(() =>
      json({
        contents: [item('a', { title: 'T', extra: true })],
        totalCount: 1,
        offset: 0,
        limit: 10,
      }),
    );
    const list = await client.getList({ endpoint: 'posts', schema: post });
    expect(list.contents).toEqual([{ ...item('a'), title: 'T' }]);
    expect(list.contents[0]?.title).toBe('T');
    expect(list.totalCount).toBe(1);
  });

  it('fails with the endpoint and the first issue path', async () => {
    const { client } = setup(() =>
      json({ contents: [item('a', { title: 1 })], totalCount: 1, offset: 0, limit: 10 }),
    );
    await expect(client.getList({ endpoint: 'posts', schema: post })).rejects.toThrow(
      /^Invalid content response: posts: contents\.0\.title: \S/,
    );
  });

  it('checks detail and object answers', async () => {
    const detail = setup(() => json({ ...item('a'), title: 'T' }));
    await expect(
      detail.client.getListDetail({ endpoint: 'posts', contentId: 'a', schema: post }),
    ).resolves.toMatchObject({ id: 'a', title: 'T' });

    const missingId = setup(() => json({ createdAt: STAMP, updatedAt: STAMP, title: 'T' }));
    await expect(
      missingId.client.getListDetail({ endpoint: 'posts', contentId: 'a', schema: post }),
    ).rejects.toThrow(/^Invalid content response: posts: id: /);

    const object = setup(() => json({ createdAt: STAMP, updatedAt: STAMP, siteName: 7 }));
    await expect(
      object.client.getObject({
        endpoint: 'settings',
        schema: z.object({ siteName: z.string() }),
      }),
    ).rejects.toThrow(/^Invalid content response: settings: siteName: /);
  });

  it('exports schemas that callers can compose', () => {
    const schema = listResponseSchema(post);
    expect(
      schema.safeParse({
        contents: [item('a', { title: 'x' })],
        totalCount: 1,
        offset: 0,
        limit: 1,
      }).success,
    ).toBe(true);
    expect(
      systemFieldsSchema.safeParse({ id: 'a', createdAt: 'yesterday', updatedAt: STAMP }).success,
    ).toBe(false);
  });
});
