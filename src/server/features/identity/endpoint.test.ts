import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from '@/lib/zod';
import { AppError } from '@/lib/errors';
import { RateLimitedError } from '@/server/platform/rate-limit/limiter';
import { endpoint } from './endpoint';
import { decodeFlash } from '@/lib/http/flash';
import {
  SERVER_ERROR_MESSAGE,
  TOO_LARGE_MESSAGE,
  UNREADABLE_MESSAGE,
} from '@/server/platform/http/form-endpoint';
import { BODY_IDLE_MS } from '@/server/platform/http/read-body';
import { countedStream, streamedPost } from '@test-support/streams';

const SITE = 'http://localhost:3000';
const KB = 1024;

type Viewer = { id: string; role: 'member' | 'editor' | 'admin' };
const member: Viewer = { id: 'u1', role: 'member' };
const editor: Viewer = { id: 'u2', role: 'editor' };

function post(
  body: BodyInit | Record<string, unknown>,
  options: { json?: boolean; plain?: boolean; headers?: Record<string, string> } = {},
): Request {
  const isObject =
    typeof body === 'object' && !(body instanceof FormData) && !ArrayBuffer.isView(body);
  const headers: Record<string, string> = {
    host: 'localhost:3000',
    origin: SITE,
    referer: `${SITE}/form?x=1`,
    ...(options.plain ? {} : { accept: 'application/json' }),
    ...(isObject ? { 'content-type': 'application/json' } : {}),
    ...options.headers,
  };
  return new Request(`${SITE}/api/thing`, {
    method: 'POST',
    headers,
    body: isObject ? JSON.stringify(body) : (body as BodyInit),
  });
}

/** A form posted without JavaScript (URL-encoded, HTML accepted). */
const plainFormPost = (body: string) =>
  post(body, { plain: true, headers: { 'content-type': 'application/x-www-form-urlencoded' } });

const schema = z.object({
  displayName: z.string().min(1, '表示名を入力してください。'),
  password: z.string().optional(),
});

function make(
  overrides: Partial<Parameters<typeof endpoint>[0]> = {},
  viewer: Viewer | null = null,
) {
  const handler = vi.fn(() =>
    Promise.resolve({
      ok: true as const,
      redirectTo: '/done',
      message: '保存しました。',
    }),
  );
  const run = endpoint(
    {
      name: 'test',
      input: schema,
      auth: 'optional',
      formPage: '/form',
      viewer: () => Promise.resolve(viewer),
      ...overrides,
    },
    handler,
  );
  return { run, handler };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('endpoint', () => {
  it('passes the parsed input, the viewer and the address to the handler', async () => {
    const { run, handler } = make({}, member);
    const request = post(
      { displayName: ' 花子 ' },
      { headers: { 'x-axis-client-ip': '192.0.2.1' } },
    );
    const response = await run(request);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      redirectTo: '/done',
      message: '保存しました。',
    });
    expect(handler).toHaveBeenCalledWith(
      expect.objectContaining({ input: { displayName: ' 花子 ' }, user: member, ip: '192.0.2.1' }),
    );
  });

  it('refuses another site with 403 before reading the body', async () => {
    const { run, handler } = make();
    const body = countedStream({ total: 1024 * KB });
    const response = await run(
      streamedPost(`${SITE}/api/thing`, body.stream, {
        host: 'localhost:3000',
        origin: 'https://evil.example',
        'content-type': 'application/json',
      }),
    );
    expect(response.status).toBe(403);
    expect(handler).not.toHaveBeenCalled();
    expect(body.pulled()).toBeLessThanOrEqual(64 * KB);
  });

  it('answers 413 to a chunked body past maxBytes, having read no more than that', async () => {
    const { run, handler } = make({ maxBytes: 8 * KB });
    const body = countedStream({ head: 'displayName=', total: 400 * 1024 * KB });
    const response = await run(
      streamedPost(`${SITE}/api/thing`, body.stream, {
        host: 'localhost:3000',
        origin: SITE,
        accept: 'application/json',
        'content-type': 'application/x-www-form-urlencoded',
      }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ ok: false, message: TOO_LARGE_MESSAGE });
    expect(body.pulled()).toBeLessThan(8 * KB + 2 * 64 * KB);
    expect(handler).not.toHaveBeenCalled();
  });

  it('answers 400 to a body that stops arriving, once BODY_IDLE_MS has passed', async () => {
    const { run, handler } = make();
    let sent = false;
    const stalled = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return new Promise<void>(() => undefined); // the client sends no more
        sent = true;
        controller.enqueue(new TextEncoder().encode('displayName=%E8%8A'));
      },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const answer = run(
        streamedPost(`${SITE}/api/thing`, stalled, {
          host: 'localhost:3000',
          origin: SITE,
          accept: 'application/json',
          'content-type': 'application/x-www-form-urlencoded',
        }),
      );
      await vi.advanceTimersByTimeAsync(BODY_IDLE_MS);
      const response = await answer;
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ ok: false, message: UNREADABLE_MESSAGE });
    } finally {
      vi.useRealTimers();
    }
    expect(handler).not.toHaveBeenCalled();
  });

  it('sends a plain post that is too large back to its form with the message', async () => {
    const { run } = make({ maxBytes: 10 });
    const response = await run(plainFormPost('displayName=0123456789abc'));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/form?x=1');
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(decodeFlash(/axis_flash=([^;]+)/.exec(cookie)?.[1])?.message).toBe(TOO_LARGE_MESSAGE);
  });

  it('answers 400 to deeply nested JSON', async () => {
    const { run, handler } = make({ maxBytes: 300 * KB }); // room for 200,000 brackets
    const deep = `{"displayName":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const response = await run(post(deep, { headers: { 'content-type': 'application/json' } }));
    expect(response.status).toBe(400);
    expect(handler).not.toHaveBeenCalled();
  });

  it('refuses a control character in any string field, NUL included, with a field message', async () => {
    const { run, handler } = make();
    for (const displayName of ['山田\u0000花子', 'a\u0007', 'a\u007f', 'a\ud800']) {
      const response = await run(post({ displayName }));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        ok: false,
        fieldErrors: { displayName: '使えない文字が含まれています。' },
      });
    }
    // In a list or a nested value, and in a urlencoded post, too.
    expect((await run(post({ displayName: 'a', tags: [['x\u0000']] }))).status).toBe(400);
    const form = await run(
      post('displayName=%00', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    );
    expect(form.status).toBe(400);
    expect(handler).not.toHaveBeenCalled();
  });

  it('lets tabs and line breaks through, and leaves named fields to their schema', async () => {
    const { run, handler } = make({ keepControlChars: ['password'] });
    expect((await run(post({ displayName: 'a\tb\r\nc' }))).status).toBe(200);
    expect((await run(post({ displayName: 'a', password: 'x\u0000' }))).status).toBe(200);
    expect(handler).toHaveBeenCalledTimes(2);
  });

  it('answers zod errors with 400 and a message per field: JSON for fetch', async () => {
    const { run } = make();
    const response = await run(post({ displayName: '' }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      ok: false,
      message: '入力内容を確認してください。',
      fieldErrors: { displayName: '表示名を入力してください。' },
    });
  });

  it('sends a plain post back to its page with the messages and what was typed, never a password', async () => {
    const { run } = make();
    const response = await run(plainFormPost('displayName=&password=secret'));
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/form?x=1');
    const flash = decodeFlash(
      /axis_flash=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1],
    );
    expect(flash).toEqual({
      message: '入力内容を確認してください。',
      fieldErrors: { displayName: '表示名を入力してください。' },
      values: { displayName: '' },
    });
  });

  it('asks for a sign-in: 401 for fetch, a 303 to /login and back for a plain post', async () => {
    const { run, handler } = make({ auth: 'user' }, null);
    const json = await run(post({ displayName: 'a' }));
    expect(json.status).toBe(401);
    const plain = await run(plainFormPost('displayName=a'));
    expect(plain.status).toBe(303);
    expect(plain.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/form?x=1')}`);
    expect(handler).not.toHaveBeenCalled();
  });

  it('lets only staff through a staff endpoint', async () => {
    const forMember = make({ auth: 'staff' }, member);
    expect((await forMember.run(post({ displayName: 'a' }))).status).toBe(403);
    expect(forMember.handler).not.toHaveBeenCalled();
    const forEditor = make({ auth: 'staff' }, editor);
    expect((await forEditor.run(post({ displayName: 'a' }))).status).toBe(200);
  });

  it('answers whoever its gate turns away the bare 404 before reading the body', async () => {
    const editorsOnly = (user: { id: string }) => (user as Viewer).role === 'editor';
    for (const viewer of [null, member]) {
      const { run, handler } = make({ gate: editorsOnly }, viewer);
      const body = countedStream({ total: 1024 * KB });
      const response = await run(
        streamedPost(`${SITE}/api/thing`, body.stream, {
          host: 'localhost:3000',
          origin: 'https://evil.example',
          accept: 'application/json',
          'content-type': 'application/json',
          'content-length': String(1024 * KB),
        }),
      );
      expect(response.status).toBe(404);
      expect(response.headers.get('set-cookie')).toBeNull();
      expect(body.pulled()).toBeLessThanOrEqual(64 * KB); // the stream's own first chunk at most
      expect(handler).not.toHaveBeenCalled();
    }
    const forEditor = make({ gate: editorsOnly }, editor);
    expect((await forEditor.run(post({ displayName: 'a' }))).status).toBe(200);
  });

  it('answers 429 with Retry-After when the handler is rate limited', async () => {
    const run = endpoint({ name: 'test', formPage: '/form' }, () =>
      Promise.reject(new RateLimitedError(90)),
    );
    const response = await run(post({ displayName: 'a' }));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('90');
  });

  it("answers a handler's AppError with its status and message", async () => {
    const run = endpoint({ name: 'test', formPage: '/form' }, () =>
      Promise.reject(new AppError('この操作を行う権限がありません。', { status: 403, code: 'x' })),
    );
    const response = await run(post({ displayName: 'a' }));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({
      ok: false,
      message: 'この操作を行う権限がありません。',
    });
  });

  it('logs an unexpected failure and answers a Japanese 500 that tells nothing of it', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const run = endpoint({ name: 'test', formPage: '/form' }, () =>
      Promise.reject(new Error('relation "secret_table" does not exist')),
    );
    const response = await run(post({ displayName: 'a' }));
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ ok: false, message: SERVER_ERROR_MESSAGE });
    expect(text).not.toContain('secret_table');
    expect(log).toHaveBeenCalledWith('[test] failed:', expect.any(Error));
  });

  it("answers JSON whatever the client asks when answers is 'json'", async () => {
    const run = endpoint(
      { name: 'beacon', input: schema, answers: 'json', plainTextJson: true },
      () => Promise.resolve(new Response(null, { status: 204 })),
    );
    const bad = await run(
      post('{"displayName":""}', { plain: true, headers: { 'content-type': 'text/plain' } }),
    );
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('application/json');
    const good = await run(
      post('{"displayName":"a"}', { plain: true, headers: { 'content-type': 'text/plain' } }),
    );
    expect(good.status).toBe(204);
  });

  it('reads a GET input from the query string, with no origin check', async () => {
    const run = endpoint(
      { name: 'read', method: 'GET', input: z.object({ q: z.string().max(3) }), answers: 'json' },
      ({ input }) => Promise.resolve(new Response(input.q)),
    );
    const ok = await run(
      new Request(`${SITE}/api/thing?q=abc`, { headers: { origin: 'https://x.example' } }),
    );
    expect(await ok.text()).toBe('abc');
    expect((await run(new Request(`${SITE}/api/thing?q=abcd`))).status).toBe(400);
    expect((await run(new Request(`${SITE}/api/thing?q=%00`))).status).toBe(400);
  });
});
