import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getAppSecret } from './app-secret';
import { isValidStorageKey } from './storage-key';

/**
 * Paid audio and video are served only through expiring, signed URLs
 * (`/media/protected/...?exp=<unix seconds>&sig=<HMAC-SHA256, base64url>`). The page that
 * shows a player decides whether the viewer may play (the access policy) and signs the URL
 * then; the media route checks only the signature, so it needs no session or database.
 */

export const MEDIA_URL_PREFIX = '/media/';
export const PROTECTED_PREFIX = 'protected/';
/** Long enough for a film and a pause, short enough that a shared link soon stops working. */
export const DEFAULT_MEDIA_URL_SECONDS = 6 * 60 * 60;
export const MAX_MEDIA_URL_SECONDS = 7 * 24 * 60 * 60;

const SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const EXP_PATTERN = /^[0-9]{1,12}$/;

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

let derived: { secret: Buffer; key: Buffer } | undefined;

/** A sub-key for this use only, so that the app secret can serve other purposes safely. */
function signingKey(): Buffer {
  const secret = getAppSecret();
  if (derived?.secret !== secret) {
    derived = { secret, key: createHmac('sha256', secret).update('axis:media-url:v1').digest() };
  }
  return derived.key;
}

function signature(key: string, exp: number): Buffer {
  return createHmac('sha256', signingKey()).update(`${key}\n${exp}`).digest();
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
  const exp = Math.floor((options.now ?? new Date()).getTime() / 1000) + seconds;
  const sig = signature(key, exp).toString('base64url');
  return `${MEDIA_URL_PREFIX}${key}?exp=${exp}&sig=${sig}`;
}

export type MediaSignatureCheck = 'valid' | 'expired' | 'invalid';

/** Whether `sig` signs `path` until `exp`. A forged or altered URL is 'invalid', never 'expired'. */
export function verifyMediaSignature(
  pathOrUrl: string,
  exp: string | null | undefined,
  sig: string | null | undefined,
  now: Date = new Date(),
): MediaSignatureCheck {
  const key = protectedMediaKey(pathOrUrl);
  if (!key || !exp || !sig || !EXP_PATTERN.test(exp) || !SIGNATURE_PATTERN.test(sig)) {
    return 'invalid';
  }
  // Compared as text: base64 decoding ignores the last character's spare bits.
  const expected = Buffer.from(signature(key, Number(exp)).toString('base64url'));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return Number(exp) * 1000 <= now.getTime() ? 'expired' : 'valid';
}
