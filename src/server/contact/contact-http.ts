import 'server-only';
import { env } from '@/env';
import { getDb } from '@/server/db/client';
import {
  FORBIDDEN_ORIGIN_MESSAGE,
  type FormInput,
  type FormResult,
  SERVER_ERROR_MESSAGE,
  UNREADABLE_MESSAGE,
  formAnswer,
  jsonAnswer,
  readFormInput,
} from '@/server/http/form-endpoint';
import { clientIp, isSameOriginRequest } from '@/server/http/request-origin';
import { userFromHeaders } from '@/server/identity/session';
import { submitContact } from './contact';

/**
 * POST /api/contact. The form's protocol (src/server/http/form-endpoint.ts): JSON with a status
 * for fetch, a 303 for a plain post (to /contact?sent=1, or back to the form with its messages).
 */

// 4,000 characters of Japanese, percent-encoded by a plain form post, is about 36 KB.
const MAX_BYTES = 64 * 1024;

/**
 * A plain post's typed text goes back in a one-time cookie, and a browser drops a cookie past
 * 4 KB whole (messages included). So at most this many UTF-8 bytes of each field go back: the
 * start of a long message, rather than nothing at all.
 */
const FLASH_BYTES: Record<string, number> = { name: 300, email: 300, subject: 120, message: 1200 };

export function clipUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > maxBytes) break;
    out += char;
  }
  return out;
}

/** Only the form's own fields, each clipped, for the one-time cookie. */
export function flashInput(input: FormInput): FormInput {
  const out: FormInput = {};
  for (const [key, max] of Object.entries(FLASH_BYTES)) {
    const value = input[key];
    if (typeof value === 'string') out[key] = clipUtf8(value, max);
  }
  return out;
}

export async function handleContactPost(request: Request): Promise<Response> {
  // CSRF: a state-changing request must come from a page of this site.
  if (!isSameOriginRequest(request))
    return jsonAnswer(403, { ok: false, message: FORBIDDEN_ORIGIN_MESSAGE });
  const input = await readFormInput(request, MAX_BYTES);
  if (!input) return jsonAnswer(400, { ok: false, message: UNREADABLE_MESSAGE });

  let result: FormResult;
  try {
    const user = await userFromHeaders(request.headers);
    result = await submitContact(
      { db: await getDb(), contactTo: env().CONTACT_TO },
      input,
      { ip: clientIp(request.headers) },
      user,
    );
  } catch (error) {
    console.error('[contact] failed:', error);
    return jsonAnswer(500, { ok: false, message: SERVER_ERROR_MESSAGE });
  }
  return formAnswer(request, result, flashInput(input), { formPage: '/contact' });
}
