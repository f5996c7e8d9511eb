import 'server-only';
import { env } from '@/env';
import { FLASH_COOKIE, setCookieValue } from './cookies';
import { encodeFlash } from '@/lib/http/flash';
import { parseJsonBytes, readBodyBytes } from './read-body';

/**
 * The protocol of the site's forms (src/components/forms/form.client.tsx) on the server side.
 * A fetch (Accept: application/json) gets JSON with a real status: 400 with a message per
 * field, 401, 403, 429 with Retry-After. A plain form post (no JavaScript) gets a 303: to the
 * next page, or back to the form with the messages and what was typed (never a secret field)
 * in a one-time cookie the page shows (src/lib/http/flash.ts).
 */

export type FormInput = Record<string, unknown> & { avatar?: File | null };

export type FormResult =
  | { ok: true; redirectTo?: string; message?: string; setCookies?: string[] }
  | {
      ok: false;
      // Any error status: an AppError thrown by a handler answers with its own.
      status: number;
      message?: string;
      fieldErrors?: Record<string, string>;
      retryAfter?: number;
    };

/** Fields never sent back to the form. */
const SECRET_FIELDS = new Set(['password', 'passwordConfirm', 'token', 'avatar']);
/** Fields that may carry several values. */
const LIST_FIELDS = new Set(['interests', 'items']);

/**
 * The most fields a form post may have: the longest of the site's forms (a console list's bulk
 * action, one field per selected row) has a few hundred. More is refused with 413.
 */
export const MAX_FORM_FIELDS = 1000;

/** Nesting a form's JSON never needs: its fields are strings, booleans and lists of strings. */
const MAX_FORM_JSON_DEPTH = 16;

export type FormRead = { ok: true; input: FormInput } | { ok: false; status: 400 | 413 };

/**
 * The body of a JSON, urlencoded or multipart post (text/plain JSON too when `plainTextJson`,
 * which is what navigator.sendBeacon sends), read no further than maxBytes: 413 past it, 400
 * when it cannot be read.
 */
export async function readFormInput(
  request: Request,
  maxBytes: number,
  options: { plainTextJson?: boolean } = {},
): Promise<FormRead> {
  const unreadable = { ok: false, status: 400 } as const;
  const type = request.headers.get('content-type') ?? '';
  const mediaType = (type.split(';', 1)[0] ?? '').trim().toLowerCase();
  const isJson =
    mediaType === 'application/json' || (!!options.plainTextJson && mediaType === 'text/plain');
  const isForm =
    mediaType === 'multipart/form-data' || mediaType === 'application/x-www-form-urlencoded';
  // Refused before a byte is read: nothing else could become an input.
  if (!isJson && !isForm) return unreadable;
  const body = await readBodyBytes(request, maxBytes);
  if (!body.ok) return body;
  if (isJson) {
    if (body.bytes.length === 0) return { ok: true, input: {} };
    const parsed = parseJsonBytes(body.bytes, MAX_FORM_JSON_DEPTH);
    const value = parsed.ok ? parsed.value : null;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { ok: true, input: value as FormInput }
      : unreadable;
  }
  let form: FormData;
  try {
    // Parsed from the bytes already counted, never from the stream itself.
    form = await new Response(body.bytes, { headers: { 'content-type': type } }).formData();
  } catch {
    return unreadable;
  }
  // One pass over the fields: looking each name's values up in the whole form (getAll) cost
  // time in the square of the fields, 7 s of the only thread for a 3 MB form. No prototype: a
  // field named __proto__ is a field, never the object whose `name` a schema would then read.
  const input = Object.create(null) as FormInput;
  let fields = 0;
  for (const [key, value] of form) {
    if (++fields > MAX_FORM_FIELDS) return { ok: false, status: 413 };
    if (LIST_FIELDS.has(key)) {
      const list = Array.isArray(input[key]) ? (input[key] as unknown[]) : (input[key] = []);
      if (typeof value === 'string') list.push(value);
    } else if (!Object.hasOwn(input, key)) {
      if (value instanceof File) input[key] = value.size > 0 ? value : null;
      else input[key] = value;
    }
  }
  return { ok: true, input };
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
export function refererPage(request: Request): string | null {
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

/**
 * An address as a Location header may carry it: every character outside visible ASCII
 * percent-encoded as UTF-8, what is already encoded left as it is. A form page built from a
 * path's parameter may hold 記事 or a space; `Headers` refuses them, and the answer was a 500.
 */
export function locationValue(address: string): string {
  return address.replace(/[^\x21-\x7e]/gu, (character) => {
    try {
      return encodeURIComponent(character);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate: U+FFFD, as a URL parser writes it
    }
  });
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
    headers.set('location', locationValue(result.redirectTo ?? '/'));
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
    setCookieValue(FLASH_COOKIE, flash, {
      maxAgeSeconds: 60,
      secure: env().SITE_URL.startsWith('https:'),
    }),
  );
  const back = refererPage(request) ?? options.formPage;
  // Signed out meanwhile: sign in, then back to the form.
  headers.set(
    'location',
    result.status === 401 && options.signInPage
      ? `/login?next=${encodeURIComponent(back)}`
      : locationValue(back),
  );
  return new Response(null, { status: 303, headers });
}

export const NOT_FOUND_MESSAGE = 'ページが見つかりません。';

/**
 * A bare 404 for fetch (JSON) and for a plain post (text) alike: no redirect and no one-time
 * message, so a request about something the viewer may not know of learns nothing, not even
 * whether it exists (the partner screens' routes).
 */
export function notFoundAnswer(request: Request): Response {
  if ((request.headers.get('accept') ?? '').includes('application/json'))
    return jsonAnswer(404, { ok: false, message: NOT_FOUND_MESSAGE, fieldErrors: {} });
  return new Response(NOT_FOUND_MESSAGE, {
    status: 404,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'private, no-store' },
  });
}

export const FORBIDDEN_ORIGIN_MESSAGE =
  'このページからは送信できません。ページを再読み込みしてください。';
export const UNREADABLE_MESSAGE = '送信内容を読み取れませんでした。入力内容を確認してください。';
export const TOO_LARGE_MESSAGE = '送信内容が大きすぎます。内容を減らしてもう一度お試しください。';
export const CONTROL_CHARACTER_MESSAGE = '使えない文字が含まれています。';
export const SERVER_ERROR_MESSAGE =
  '処理中にエラーが発生しました。時間をおいてもう一度お試しください。';
