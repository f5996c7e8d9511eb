import 'server-only';
import { z } from '@/lib/zod';
import { isoDateJa } from '@/lib/format';

/**
 * The page-view beacon's body (src/components/analytics/beacon.ts): what the browser may tell
 * us, checked before anything is stored. Only the path, an origin-and-path referrer and the
 * random visitor id are kept; query strings and fragments are dropped because they can carry
 * personal data (search words, e-mail addresses in links, tokens).
 */

export const MAX_VIEW_BODY_BYTES = 2048;
export const MAX_VIEW_PATH_LENGTH = 512;
export const MAX_REFERRER_LENGTH = 1000;

/** A site path: one leading slash (not `//host`), no whitespace, control characters or `\`. */
function isSitePath(value: string): boolean {
  if (!value.startsWith('/') || value.startsWith('//')) return false;
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (code <= 0x20 || code === 0x7f || char === '\\') return false;
  }
  return true;
}

export const viewInputSchema = z.object({
  path: z
    .string()
    .max(MAX_VIEW_PATH_LENGTH)
    .refine(isSitePath, { message: 'path はサイト内のパス（/ で始まる）にしてください。' }),
  referrer: z.string().max(MAX_REFERRER_LENGTH).optional(),
  visitorId: z.uuid(),
  /** The page showed a paywall: counted only where the server agrees (view-endpoint.ts). */
  paywall: z.boolean().optional(),
});

export type PageViewInput = {
  /** The path without query or fragment. */
  path: string;
  /** Origin and path of the referring page, or null. */
  referrer: string | null;
  visitorId: string;
};

/** The referrer as origin + path, without query, fragment or credentials; null when not http(s). */
export function stripReferrer(referrer: string | null | undefined): string | null {
  if (!referrer) return null;
  let url: URL;
  try {
    url = new URL(referrer);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // url.origin never includes user:password@.
  return `${url.origin}${url.pathname}`.slice(0, MAX_REFERRER_LENGTH);
}

export type ParsedView = { ok: true; view: PageViewInput } | { ok: false; message: string };

/** The beacon's text (sendBeacon sends text/plain) → a view, or a message saying what is wrong. */
export function parseViewBody(text: string): ParsedView {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, message: '計測データが JSON として読めません。' };
  }
  const parsed = viewInputSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') || '本文';
    return { ok: false, message: `計測データの ${field} が正しくありません。` };
  }
  const { path, referrer, visitorId } = parsed.data;
  return {
    ok: true,
    view: {
      path: path.split(/[?#]/, 1)[0] || '/',
      referrer: stripReferrer(referrer),
      visitorId: visitorId.toLowerCase(),
    },
  };
}

/** YYYY-MM-DD of an instant in Japan (Asia/Tokyo has had no daylight saving since 1951). */
export function japanDay(at: Date | number): string {
  return isoDateJa(at);
}

/** The day `days` days before `day` (YYYY-MM-DD), calendar arithmetic in UTC. */
export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}
