import 'server-only';
import { readBodyBytes } from '@/server/platform/http/read-body';
import { messagePage } from './layout';

/**
 * A post to one of the sandbox's pages: a small form-urlencoded body from a page of the same
 * origin. A browser sends Origin with every form post, so one from another site (or an opaque
 * `null` origin) is refused: another site must not submit a card or cancel a plan through a
 * session's page. A post without Origin comes from a tool, not from a visitor's browser.
 */

const MAX_FORM_BYTES = 8 * 1024;

export type PageForm = { ok: true; form: URLSearchParams } | { ok: false; response: Response };

function refused(status: number, text: string): { ok: false; response: Response } {
  return { ok: false, response: messagePage('送信を受け付けられませんでした', text, null, status) };
}

function isSameOriginPost(request: Request): boolean {
  const origin = request.headers.get('origin');
  if (origin === null) return request.headers.get('sec-fetch-site') !== 'cross-site';
  return origin === new URL(request.url).origin;
}

export async function readPageForm(request: Request): Promise<PageForm> {
  if (!isSameOriginPost(request)) {
    return refused(403, '別のサイトからの送信は受け付けられません。');
  }
  const type = (request.headers.get('content-type') ?? '').split(';', 1)[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    return refused(415, 'フォームの送信形式が正しくありません。');
  }
  const body = await readBodyBytes(request, MAX_FORM_BYTES);
  if (!body.ok) {
    return refused(
      body.status,
      body.status === 413 ? '送信内容が大きすぎます。' : '送信内容を読み取れませんでした。',
    );
  }
  try {
    return {
      ok: true,
      form: new URLSearchParams(new TextDecoder('utf-8', { fatal: true }).decode(body.bytes)),
    };
  } catch {
    return refused(400, '送信内容を読み取れませんでした。');
  }
}
