import 'server-only';
import { env } from '@/env';
import { getDb } from '@/server/db/client';
import { endpoint } from '@/server/http/endpoint';
import type { FormInput } from '@/server/http/form-endpoint';
import { submitContact } from './contact';

/**
 * POST /api/contact. The form's protocol (src/server/http/endpoint.ts): JSON with a status
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

export const handleContactPost = endpoint(
  {
    name: 'contact',
    maxBytes: MAX_BYTES,
    auth: 'optional',
    formPage: '/contact',
    flashValues: flashInput,
    // The schema drops them from the message (src/server/contact/contact.ts).
    keepControlChars: ['message'],
  },
  async ({ input, user, ip }) =>
    submitContact({ db: await getDb(), contactTo: env().CONTACT_TO }, input, { ip }, user),
);
