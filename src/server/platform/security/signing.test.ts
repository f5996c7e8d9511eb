import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  MAX_MEDIA_URL_SECONDS,
  protectedMediaKey,
  signJsonToken,
  signMediaUrl,
  signToken,
  verifyJsonToken,
  verifyMediaSignature,
  verifyToken,
} from './signing';

// A fixed secret, so that values signed before the two signing modules became one can be
// checked byte for byte (getAppSecret's own file handling is tested in app-secret.test.ts).
process.env.APP_SECRET = 'golden-secret-golden-secret-golden-secret';

const key = 'protected/2026/01/0123456789abcdef0123456789abcdef.mp4';
const now = new Date('2026-01-15T12:00:00Z');

function parts(url: string) {
  const parsed = new URL(url, 'http://localhost');
  return {
    path: parsed.pathname,
    exp: parsed.searchParams.get('exp'),
    sig: parsed.searchParams.get('sig'),
  };
}

describe('signMediaUrl / verifyMediaSignature', () => {
  it('signs a protected key into a /media URL that verifies until it expires', () => {
    const url = signMediaUrl(key, { expiresInSeconds: 600, now });
    expect(url).toMatch(
      /^\/media\/protected\/2026\/01\/[0-9a-f]{32}\.mp4\?exp=\d+&sig=[A-Za-z0-9_-]{43}$/,
    );
    const { path: p, exp, sig } = parts(url);
    expect(Number(exp)).toBe(now.getTime() / 1000 + 600);
    expect(verifyMediaSignature(p, exp, sig, now)).toBe('valid');
    expect(verifyMediaSignature(key, exp, sig, new Date(now.getTime() + 599_000))).toBe('valid');
    expect(verifyMediaSignature(key, exp, sig, new Date(now.getTime() + 600_000))).toBe('expired');
  });

  it('accepts the URL the upload API answered, and re-signs a signed URL', () => {
    const a = signMediaUrl(`/media/${key}`, { expiresInSeconds: 60, now });
    const b = signMediaUrl(a, { expiresInSeconds: 60, now });
    expect(b).toBe(a);
  });

  it('refuses a tampered path, expiry or signature', () => {
    const { exp, sig } = parts(signMediaUrl(key, { expiresInSeconds: 600, now }));
    const otherKey = key.replace('0123', '9123');
    expect(verifyMediaSignature(otherKey, exp, sig, now)).toBe('invalid');
    expect(verifyMediaSignature(key, String(Number(exp) + 3600), sig, now)).toBe('invalid');
    // Every single-character change of the signature, including the last one's spare bits.
    for (let i = 0; i < sig!.length; i++) {
      const swapped = sig!.slice(0, i) + (sig![i] === 'A' ? 'B' : 'A') + sig!.slice(i + 1);
      expect(verifyMediaSignature(key, exp, swapped, now)).toBe('invalid');
    }
    expect(verifyMediaSignature(key, exp, sig!.slice(1), now)).toBe('invalid');
    expect(verifyMediaSignature(key, exp, null, now)).toBe('invalid');
    expect(verifyMediaSignature(key, null, sig, now)).toBe('invalid');
    expect(verifyMediaSignature(key, '1e12', sig, now)).toBe('invalid');
    // A signature made for an expired URL stays 'invalid' when moved to another path.
    expect(verifyMediaSignature(otherKey, exp, sig, new Date(now.getTime() + 10e6))).toBe(
      'invalid',
    );
  });

  it('signs only protected keys, for a sane duration', () => {
    expect(() => signMediaUrl('images/2026/01/a.jpg', { expiresInSeconds: 60 })).toThrow(
      'protected/',
    );
    expect(() => signMediaUrl('protected/../images/a.jpg', { expiresInSeconds: 60 })).toThrow();
    expect(() => signMediaUrl(key, { expiresInSeconds: 0 })).toThrow(RangeError);
    expect(() => signMediaUrl(key, { expiresInSeconds: MAX_MEDIA_URL_SECONDS + 1 })).toThrow(
      RangeError,
    );
    expect(protectedMediaKey('/media/protected/a.mp3?exp=1&sig=x')).toBe('protected/a.mp3');
    expect(protectedMediaKey('/uploads/images/a.jpg')).toBeNull();
  });
});

describe('signToken / verifyToken', () => {
  const at = Date.UTC(2026, 0, 15, 12);

  it('gives back the payload of a token of the same purpose and binding until it expires', () => {
    const token = signToken('preview', 'cG9zdA', { seconds: 60, boundTo: 'session-1', now: at });
    expect(token).toMatch(/^cG9zdA\.\d+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyToken('preview', token, { boundTo: 'session-1', now: at })).toBe('cG9zdA');
    expect(verifyToken('preview', token, { boundTo: 'session-1', now: at + 59_999 })).toBe(
      'cG9zdA',
    );
    expect(verifyToken('preview', token, { boundTo: 'session-1', now: at + 60_000 })).toBeNull();
  });

  it('refuses another purpose, another binding, and any altered part', () => {
    const token = signToken('audience', 'paid-abc', { seconds: 60, now: at });
    expect(verifyToken('audience', token, { now: at })).toBe('paid-abc');
    expect(verifyToken('preview', token, { now: at })).toBeNull();
    expect(verifyToken('audience', token, { boundTo: 'x', now: at })).toBeNull();
    const [payload, exp, mac] = token.split('.') as [string, string, string];
    expect(verifyToken('audience', `paid-abd.${exp}.${mac}`, { now: at })).toBeNull();
    expect(verifyToken('audience', `${payload}.${Number(exp) + 1}.${mac}`, { now: at })).toBeNull();
    for (let i = 0; i < mac.length; i++) {
      const swapped = mac.slice(0, i) + (mac[i] === 'A' ? 'B' : 'A') + mac.slice(i + 1);
      expect(verifyToken('audience', `${payload}.${exp}.${swapped}`, { now: at })).toBeNull();
    }
    expect(verifyToken('audience', `${token}.x`, { now: at })).toBeNull();
    expect(verifyToken('audience', `${payload}.1e12.${mac}`, { now: at })).toBeNull();
    expect(verifyToken('audience', undefined)).toBeNull();
    expect(verifyToken('audience', 'a'.repeat(5000))).toBeNull();
    expect(() => signToken('audience', 'a.b', { seconds: 60 })).toThrow();
  });
});

describe('values signed before the two signing modules became one', () => {
  // Signed by security/signed-token.ts and storage/signed-url.ts with the secret above.
  const at = Date.UTC(2026, 0, 15, 12);

  it('are signed the same way and still verify', () => {
    const audience = 'paid-abc.1768478460.Xa5IkaNJFxMf6Le5XR6iJHTcOQn4qJlTCR7gck0n6VQ';
    const preview = 'cG9zdA.1768482000.WdIA4c1_ID712qF--tkx-0Wtk4LD3jDjAi5Dmv5tuRQ';
    const media =
      '/media/protected/2026/01/0123456789abcdef0123456789abcdef.mp4?exp=1768500000&sig=KiR1b2kTogVhxGZHA7gWf4BGe__DLRyd_dyLqKHyOQw';
    expect(signToken('audience', 'paid-abc', { seconds: 60, now: at })).toBe(audience);
    expect(signToken('preview', 'cG9zdA', { seconds: 3600, boundTo: 'session-1', now: at })).toBe(
      preview,
    );
    expect(signMediaUrl(key, { now: new Date(at) })).toBe(media);
    expect(verifyToken('audience', audience, { now: at })).toBe('paid-abc');
    expect(verifyToken('preview', preview, { boundTo: 'session-1', now: at })).toBe('cG9zdA');
    const { path: p, exp, sig } = parts(media);
    expect(verifyMediaSignature(p, exp, sig, new Date(at))).toBe('valid');
  });
});

describe('JSON cookie tokens', () => {
  const shape = z.object({ plan: z.enum(['monthly', 'yearly']) });

  it('give back the signed value only while it is valid, unaltered and of the shape', () => {
    const now = Date.UTC(2026, 10, 27);
    const token = signJsonToken('json-test', { plan: 'yearly' }, { seconds: 60, now });
    expect(verifyJsonToken('json-test', token, shape, { now })).toEqual({ plan: 'yearly' });
    expect(verifyJsonToken('json-test', token, shape, { now: now + 61_000 })).toBeNull();
    expect(verifyJsonToken('another-purpose', token, shape, { now })).toBeNull();
    const [, exp, mac] = token.split('.');
    const forged = `${Buffer.from('{"plan":"monthly"}').toString('base64url')}.${exp}.${mac}`;
    expect(verifyJsonToken('json-test', forged, shape, { now })).toBeNull();
    const wrongShape = signJsonToken('json-test', { plan: 'lifetime' }, { seconds: 60, now });
    expect(verifyJsonToken('json-test', wrongShape, shape, { now })).toBeNull();
    const notJson = signToken('json-test', 'bm90IGpzb24', { seconds: 60, now });
    expect(verifyJsonToken('json-test', notJson, shape, { now })).toBeNull();
  });
});
