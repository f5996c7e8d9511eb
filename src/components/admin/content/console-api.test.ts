import { afterEach, describe, expect, it, vi } from 'vitest';
import { sendJson } from './console-api';

const respond = (status: number, body: string) =>
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(() => Promise.resolve(new Response(body, { status }))),
  );

afterEach(() => vi.unstubAllGlobals());

describe('sendJson', () => {
  it('turns a network failure into a Japanese message, not an exception', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(sendJson('PUT', '/x', {})).resolves.toEqual({
      kind: 'failed',
      status: 0,
      message: 'サーバーに接続できませんでした。ネットワークを確認して、もう一度お試しください。',
    });
  });

  it('reads a 404 or a 500 without a JSON body as a failure with a message', async () => {
    respond(404, 'Not Found');
    await expect(sendJson('PUT', '/x', {})).resolves.toMatchObject({
      kind: 'failed',
      status: 404,
      message: 'この項目は見つかりませんでした。削除されたか、権限がありません。',
    });
    respond(500, '<html>');
    await expect(sendJson('PUT', '/x', {})).resolves.toMatchObject({
      kind: 'failed',
      message: '保存できませんでした（エラー 500）。時間をおいてもう一度お試しください。',
    });
  });

  it('tells a conflict, invalid input and a DELETE answer apart', async () => {
    respond(
      409,
      JSON.stringify({ ok: false, message: '競合', conflict: { by: null, updatedAt: 'T' } }),
    );
    await expect(sendJson('PUT', '/x', {})).resolves.toEqual({
      kind: 'conflict',
      message: '競合',
      by: null,
      updatedAt: 'T',
    });
    respond(
      400,
      JSON.stringify({ ok: false, message: '参照されています。', fieldErrors: { a: 1, b: 'x' } }),
    );
    await expect(sendJson('DELETE', '/x', {})).resolves.toEqual({
      kind: 'invalid',
      message: '参照されています。',
      fieldErrors: { b: 'x' },
    });
    respond(200, JSON.stringify({ ok: true, message: '削除しました。' }));
    await expect(sendJson('DELETE', '/x', {})).resolves.toEqual({
      kind: 'ok',
      answer: null,
      message: '削除しました。',
    });
    // A save must answer its new token: without one the form cannot go on safely.
    respond(200, JSON.stringify({ ok: true }));
    await expect(sendJson('PUT', '/x', {})).resolves.toMatchObject({ kind: 'failed' });
  });
});
