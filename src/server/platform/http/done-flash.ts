import 'server-only';
import { DONE_FLAG } from '@/lib/http/form-flash';
import { env } from '@/env';
import { FLASH_COOKIE, setCookieValue } from './cookies';
import { encodeFlash } from '@/lib/http/flash';
import type { FormResult } from './form-endpoint';

/**
 * What a staff form's post did, said once on the page it goes on to: the one-time cookie
 * (src/lib/http/flash.ts) marked as a success, with whatever else that page is to show
 * once (a new API key, say).
 */
export function doneFlashCookie(message: string, values: Record<string, string> = {}): string {
  const flash = encodeFlash({ message, fieldErrors: {}, values: { ...values, [DONE_FLAG]: '1' } });
  return setCookieValue(FLASH_COOKIE, flash, {
    maxAgeSeconds: 60,
    secure: env().SITE_URL.startsWith('https:'),
  });
}

/** Success: on to `to`, the message shown there once. */
export function doneAnswer(
  message: string,
  to: string,
  values: Record<string, string> = {},
): FormResult & { ok: true } {
  return { ok: true, redirectTo: to, message, setCookies: [doneFlashCookie(message, values)] };
}
