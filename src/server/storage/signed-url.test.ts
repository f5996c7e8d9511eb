import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getAppSecret } from './app-secret';
import {
  MAX_MEDIA_URL_SECONDS,
  protectedMediaKey,
  signMediaUrl,
  verifyMediaSignature,
} from './signed-url';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'axis-signed-'));
process.env.DATA_DIR = dataDir;
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

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

describe('getAppSecret without APP_SECRET', () => {
  it('creates DATA_DIR/app-secret once, private to the owner, and keeps using it', () => {
    const secret = getAppSecret();
    const file = path.join(dataDir, 'app-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(secret.toString()).toBe(fs.readFileSync(file, 'utf8').trim());
    expect(getAppSecret()).toBe(secret);
    expect(fs.readdirSync(dataDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
