import 'server-only';
import { env } from '@/env';
import { FLASH_COOKIE, encodeFlash } from './flash';

/**
 * The protocol of the site's forms (src/components/forms/form.client.tsx) on the server side.
 * A fetch (Accept: application/json) gets JSON with a real status: 400 with a message per
 * field, 401, 403, 429 with Retry-After. A plain form post (no JavaScript) gets a 303: to the
 * next page, or back to the form with the messages and what was typed (never a secret field)
 * in a one-time cookie the page shows (src/server/http/flash.ts).
 */

export type FormInput = Record<string, unknown> & { avatar?: File | null };

export type FormResult =
  | { ok: true; redirectTo?: string; message?: string; setCookies?: string[] }
  | {
      ok: false;
      status: 400 | 401 | 403 | 404 | 429;
      message?: string;
      fieldErrors?: Record<string, string>;
      retryAfter?: number;
    };

/** Fields never sent back to the form. */
const SECRET_FIELDS = new Set(['password', 'passwordConfirm', 'token', 'avatar']);
/** Fields that may carry several values. */
const LIST_FIELDS = new Set(['interests']);

/** The body of a JSON, urlencoded or multipart post; null when it cannot be read or is too big. */
export async function readFormInput(request: Request, maxBytes: number): Promise<FormInput | null> {
  const length = Number(request.headers.get('content-length') ?? '0');
  if (length > maxBytes) return null;
  const type = request.headers.get('content-type') ?? '';
  try {
    if (type.includes('application/json')) {
      const text = await request.text();
      if (text.length > maxBytes) return null;
      const value: unknown = JSON.parse(text || '{}');
      return typeof value === 'object' && value !== null && !Array.isArray(value)
        ? (value as FormInput)
        : null;
    }
    if (
      type.includes('multipart/form-data') ||
      type.includes('application/x-www-form-urlencoded')
    ) {
      const form = await request.formData();
      const input: FormInput = {};
      for (const key of new Set(form.keys())) {
        const values = form.getAll(key);
        const first = values[0];
        if (first instanceof File) input[key] = first.size > 0 ? first : null;
        else if (LIST_FIELDS.has(key)) input[key] = values.filter((v) => typeof v === 'string');
        else input[key] = typeof first === 'string' ? first : undefined;
      }
      return input;
    }
  } catch {
    return null;
  }
  return null;
}

export function jsonAnswer(
  status: number,
  body: unknown,
  extra: Headers = new Headers(),
): Response {
  extra.set('content-type', 'application/json; charset=utf-8');
  extra.set('cache-control', 'private, no-store');
  return new Response(JSON.stringify(body), { status, headers: extra });
}

/** The same-site page a plain post came from, for sending it back there. */
function refererPage(request: Request): string | null {
  const referer = request.headers.get('referer');
  if (!referer) return null;
  try {
    const url = new URL(referer);
    const site = new URL(env().SITE_URL);
    if (url.host === site.host || url.host === request.headers.get('host'))
      return url.pathname + url.search;
  } catch {
    /* not a URL */
  }
  return null;
}

/** The answer to a form post: JSON for fetch, a 303 for a plain post. */
export function formAnswer(
  request: Request,
  result: FormResult,
  input: FormInput,
  options: { formPage: string; signInPage?: boolean },
): Response {
  const wantsJson = (request.headers.get('accept') ?? '').includes('application/json');
  const headers = new Headers();
  if (result.ok) for (const cookie of result.setCookies ?? []) headers.append('set-cookie', cookie);
  if (!result.ok && result.status === 429)
    headers.set('retry-after', String(result.retryAfter ?? 60));

  if (wantsJson) {
    const body = result.ok
      ? { ok: true, redirectTo: result.redirectTo ?? null, message: result.message ?? null }
      : { ok: false, message: result.message ?? null, fieldErrors: result.fieldErrors ?? {} };
    return jsonAnswer(result.ok ? 200 : result.status, body, headers);
  }
  if (result.ok) {
    headers.set('location', result.redirectTo ?? '/');
    return new Response(null, { status: 303, headers });
  }
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(input)) {
    if (SECRET_FIELDS.has(key)) continue;
    if (typeof value === 'string') values[key] = value.slice(0, 2000);
    else if (Array.isArray(value))
      values[key] = value.filter((v): v is string => typeof v === 'string');
  }
  const flash = encodeFlash({
    message: result.message ?? null,
    fieldErrors: result.fieldErrors ?? {},
    values,
  });
  headers.append(
    'set-cookie',
    `${FLASH_COOKIE}=${flash}; Path=/; Max-Age=60; HttpOnly; SameSite=Lax`,
  );
  headers.set(
    'location',
    result.status === 401 && options.signInPage
      ? '/login'
      : (refererPage(request) ?? options.formPage),
  );
  return new Response(null, { status: 303, headers });
}

export const FORBIDDEN_ORIGIN_MESSAGE =
  'このページからは送信できません。ページを再読み込みしてください。';
export const UNREADABLE_MESSAGE = '送信内容を読み取れませんでした。入力内容を確認してください。';
export const SERVER_ERROR_MESSAGE =
  '処理中にエラーが発生しました。時間をおいてもう一度お試しください。';
