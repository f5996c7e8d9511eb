import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { z } from 'zod';
import { getAppSecret } from '@/server/platform/security/app-secret';
import { isValidStorageKey } from '@/lib/media/storage-key';
import { singleton } from '@/lib/singleton';

/**
 * Everything the app signs with APP_SECRET: one core (a sub-key per purpose, HMAC-SHA256 over
 * the signed fields, a constant-time compare, expiry in Unix seconds) and the two wire formats
 * on top of it, cookie tokens and media URLs. Every instance that shares APP_SECRET verifies
 * what another signed. The formats are hand-written on purpose and must not change: audience
 * and preview cookies and media URLs already issued have to keep verifying
 * (docs/decisions/015-one-home-per-concern.md).
 */

// --- core --------------------------------------------------------------------------------

const keys = singleton('signing-keys', () => new Map<string, { secret: Buffer; key: Buffer }>());

/** A sub-key for one purpose only, so that a value signed for one use never verifies for another. */
function purposeKey(purpose: string): Buffer {
  const secret = getAppSecret();
  const known = keys.get(purpose);
  if (known?.secret === secret) return known.key;
  const key = createHmac('sha256', secret).update(`axis:${purpose}:v1`).digest();
  keys.set(purpose, { secret, key });
  return key;
}

/** The MAC of the fields (joined by new lines) under the purpose's key, base64url. */
function sign(purpose: string, fields: readonly (string | number)[]): string {
  return createHmac('sha256', purposeKey(purpose)).update(fields.join('\n')).digest('base64url');
}

/**
 * Whether `given` is the MAC of the fields. Compared as text in constant time: base64 decoding
 * ignores the last character's spare bits, so decoded bytes would accept altered signatures.
 */
function verify(purpose: string, fields: readonly (string | number)[], given: string): boolean {
  return sameSecret(given, sign(purpose, fields));
}

/** Whether two secrets (tokens, keys, MACs as text) are the same, compared in constant time. */
export function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * A keyed digest of a value under the purpose's key: what a log keeps instead of a personal
 * value it only needs to compare (a client address), unreadable without APP_SECRET.
 */
export function keyedDigest(purpose: string, value: string): string {
  return sign(purpose, [value]).slice(0, 32);
}

const EXP_PATTERN = /^[0-9]{1,12}$/;

/** The expiry `seconds` from now, in Unix seconds. */
const expiryAfter = (seconds: number, nowMs: number) => Math.floor(nowMs / 1000) + seconds;

/** An expiry as written in a signed value, or null when it is not one. */
const readExpiry = (text: string | null | undefined) =>
  text && EXP_PATTERN.test(text) ? Number(text) : null;

const hasExpired = (exp: number, nowMs: number) => exp * 1000 <= nowMs;

// --- cookie tokens: `payload.expiry.mac` ---------------------------------------------------

/**
 * A short token for a cookie, its MAC over the payload, the expiry and whatever the token is
 * bound to (a session, an item). The payload must not contain dots (use base64url for anything
 * free-form).
 */
export function signToken(
  purpose: string,
  payload: string,
  options: { seconds: number; boundTo?: string; now?: number },
): string {
  if (payload.includes('.')) throw new Error('a signed payload has no dots');
  const exp = expiryAfter(options.seconds, options.now ?? Date.now());
  return `${payload}.${exp}.${sign(purpose, [payload, exp, options.boundTo ?? ''])}`;
}

/** The payload of a valid, unexpired token of this purpose bound to `boundTo`, else null. */
export function verifyToken(
  purpose: string,
  token: string | undefined,
  options: { boundTo?: string; now?: number } = {},
): string | null {
  if (!token || token.length > 4096) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [payload, expText, given] = parts as [string, string, string];
  const exp = readExpiry(expText);
  if (exp === null || hasExpired(exp, options.now ?? Date.now())) return null;
  return verify(purpose, [payload, exp, options.boundTo ?? ''], given) ? payload : null;
}

/** A cookie token whose payload is a JSON value (base64url, so it has no dots). */
export function signJsonToken(
  purpose: string,
  value: unknown,
  options: { seconds: number; boundTo?: string; now?: number },
): string {
  return signToken(purpose, Buffer.from(JSON.stringify(value)).toString('base64url'), options);
}

/** The value of a valid, unexpired JSON token of this purpose that has `shape`, else null. */
export function verifyJsonToken<T>(
  purpose: string,
  token: string | undefined,
  shape: z.ZodType<T>,
  options: { boundTo?: string; now?: number } = {},
): T | null {
  const payload = verifyToken(purpose, token, options);
  if (!payload) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const parsed = shape.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

// --- media URLs: `/media/protected/...?exp=<unix seconds>&sig=<mac>` ------------------------

/**
 * Paid audio and video are served only through expiring, signed URLs. The page that shows a
 * player decides whether the viewer may play (the access policy) and signs the URL then; the
 * media route checks only the signature, so it needs no session or database.
 */

const MEDIA_PURPOSE = 'media-url';
export const MEDIA_URL_PREFIX = '/media/';
export const PROTECTED_PREFIX = 'protected/';
/** Long enough for a film and a pause, short enough that a shared link soon stops working. */
export const DEFAULT_MEDIA_URL_SECONDS = 6 * 60 * 60;
export const MAX_MEDIA_URL_SECONDS = 7 * 24 * 60 * 60;

const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The storage key of a protected file from any of the forms a caller may hold: the key
 * (`protected/...`), the unsigned URL the upload API answered (`/media/protected/...`), or a
 * previously signed URL (its query is dropped). Null when it is not a protected key.
 */
export function protectedMediaKey(pathOrUrl: string): string | null {
  let key = pathOrUrl.split(/[?#]/, 1)[0]!;
  if (key.startsWith(MEDIA_URL_PREFIX)) key = key.slice(MEDIA_URL_PREFIX.length);
  return isValidStorageKey(key) && key.startsWith(PROTECTED_PREFIX) ? key : null;
}

export function signMediaUrl(
  pathOrUrl: string,
  options: { expiresInSeconds?: number; now?: Date } = {},
): string {
  const key = protectedMediaKey(pathOrUrl);
  if (!key) throw new Error(`署名できるのは protected/ 以下のメディアだけです: ${pathOrUrl}`);
  const seconds = options.expiresInSeconds ?? DEFAULT_MEDIA_URL_SECONDS;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_MEDIA_URL_SECONDS) {
    throw new RangeError(`expiresInSeconds must be an integer from 1 to ${MAX_MEDIA_URL_SECONDS}`);
  }
  const exp = expiryAfter(seconds, (options.now ?? new Date()).getTime());
  return `${MEDIA_URL_PREFIX}${key}?exp=${exp}&sig=${sign(MEDIA_PURPOSE, [key, exp])}`;
}

export type MediaSignatureCheck = 'valid' | 'expired' | 'invalid';

/** Whether `sig` signs `path` until `exp`. A forged or altered URL is 'invalid', never 'expired'. */
export function verifyMediaSignature(
  pathOrUrl: string,
  expText: string | null | undefined,
  sig: string | null | undefined,
  now: Date = new Date(),
): MediaSignatureCheck {
  const key = protectedMediaKey(pathOrUrl);
  const exp = readExpiry(expText);
  if (!key || exp === null || !sig || !SIGNATURE_PATTERN.test(sig)) return 'invalid';
  if (!verify(MEDIA_PURPOSE, [key, exp], sig)) return 'invalid';
  return hasExpired(exp, now.getTime()) ? 'expired' : 'valid';
}
