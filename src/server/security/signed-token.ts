import 'server-only';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { getAppSecret } from '@/server/storage/app-secret';

/**
 * Short signed tokens for cookies: `payload.expiry.mac`, the MAC an HMAC-SHA256 under a key
 * derived from APP_SECRET for one purpose, over the purpose, the payload, the expiry and
 * whatever the token is bound to (a session, an item). A token of one purpose never verifies
 * for another, and every instance that shares APP_SECRET verifies what another signed.
 */

const keys = new Map<string, { secret: Buffer; key: Buffer }>();

function purposeKey(purpose: string): Buffer {
  const secret = getAppSecret();
  const known = keys.get(purpose);
  if (known?.secret === secret) return known.key;
  const key = createHmac('sha256', secret).update(`axis:${purpose}:v1`).digest();
  keys.set(purpose, { secret, key });
  return key;
}

const mac = (purpose: string, payload: string, exp: number, boundTo: string) =>
  createHmac('sha256', purposeKey(purpose))
    .update(`${payload}\n${exp}\n${boundTo}`)
    .digest()
    .toString('base64url');

/** The payload must not contain dots (use base64url for anything free-form). */
export function signToken(
  purpose: string,
  payload: string,
  options: { seconds: number; boundTo?: string; now?: number },
): string {
  if (payload.includes('.')) throw new Error('a signed payload has no dots');
  const exp = Math.floor((options.now ?? Date.now()) / 1000) + options.seconds;
  return `${payload}.${exp}.${mac(purpose, payload, exp, options.boundTo ?? '')}`;
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
  if (!/^[0-9]{1,12}$/.test(expText)) return null;
  const exp = Number(expText);
  if (exp * 1000 <= (options.now ?? Date.now())) return null;
  const expected = Buffer.from(mac(purpose, payload, exp, options.boundTo ?? ''));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected) ? payload : null;
}
