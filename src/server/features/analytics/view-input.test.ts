import { describe, expect, it } from 'vitest';
import { addDays, japanDay, parseViewBody, stripReferrer } from './view-input';

const VISITOR = '3f2b8c1e-7d4a-4b6e-9c0d-1a2b3c4d5e6f';

describe('stripReferrer', () => {
  it('keeps origin and path, drops query, fragment and credentials', () => {
    expect(stripReferrer('https://www.google.com/search?q=%E5%90%8D%E5%89%8D#x')).toBe(
      'https://www.google.com/search',
    );
    expect(stripReferrer('https://user:secret@example.jp/a/b?email=a@example.jp')).toBe(
      'https://example.jp/a/b',
    );
    expect(stripReferrer('http://localhost:3000/posts/abc?page=2')).toBe(
      'http://localhost:3000/posts/abc',
    );
    expect(stripReferrer('https://example.jp')).toBe('https://example.jp/');
  });

  it('is null for nothing, non-URLs and other schemes', () => {
    expect(stripReferrer(undefined)).toBeNull();
    expect(stripReferrer(null)).toBeNull();
    expect(stripReferrer('')).toBeNull();
    expect(stripReferrer('not a url')).toBeNull();
    expect(stripReferrer('javascript:alert(1)')).toBeNull();
    expect(stripReferrer('android-app://com.google.android.gm/')).toBeNull();
    expect(stripReferrer('data:text/html,hi')).toBeNull();
  });
});

describe('parseViewBody', () => {
  const body = (value: unknown) => JSON.stringify(value);

  it('accepts a view and keeps only what is stored', () => {
    expect(
      parseViewBody(
        body({
          path: '/posts/abc?utm_source=mail#section',
          referrer: 'https://t.co/xyz?amp=1',
          visitorId: VISITOR.toUpperCase(),
        }),
      ),
    ).toEqual({
      ok: true,
      view: { path: '/posts/abc', referrer: 'https://t.co/xyz', visitorId: VISITOR },
    });
    expect(parseViewBody(body({ path: '/', visitorId: VISITOR }))).toEqual({
      ok: true,
      view: { path: '/', referrer: null, visitorId: VISITOR },
    });
  });

  it.each([
    ['not JSON', 'path=/'],
    ['an empty body', ''],
    ['an array', '[]'],
    ['null', 'null'],
    ['a missing path', body({ visitorId: VISITOR })],
    ['a relative path', body({ path: 'posts/abc', visitorId: VISITOR })],
    ['an absolute URL', body({ path: 'https://evil.example/posts/abc', visitorId: VISITOR })],
    ['a protocol-relative URL', body({ path: '//evil.example/x', visitorId: VISITOR })],
    ['a backslash', body({ path: '/\\evil.example', visitorId: VISITOR })],
    ['whitespace', body({ path: '/posts/a b', visitorId: VISITOR })],
    ['a control character', body({ path: '/posts/a\u0000', visitorId: VISITOR })],
    ['a path of 513 characters', body({ path: '/' + 'a'.repeat(512), visitorId: VISITOR })],
    ['a number path', body({ path: 1, visitorId: VISITOR })],
    [
      'a referrer of 1001 characters',
      body({ path: '/', referrer: 'https://a.jp/' + 'a'.repeat(988), visitorId: VISITOR }),
    ],
    ['a visitor id that is not a UUID', body({ path: '/', visitorId: 'visitor-1' })],
    ['a missing visitor id', body({ path: '/' })],
  ])('refuses %s', (_name, text) => {
    const result = parseViewBody(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(/計測データ/);
  });

  it('accepts a path of exactly 512 characters and Japanese in the path', () => {
    expect(parseViewBody(body({ path: '/' + 'a'.repeat(511), visitorId: VISITOR })).ok).toBe(true);
    expect(parseViewBody(body({ path: '/search/デザイン', visitorId: VISITOR })).ok).toBe(true);
  });
});

describe('japanDay', () => {
  it('is the date in Japan, which starts at 15:00 UTC', () => {
    expect(japanDay(new Date('2026-11-20T14:59:59Z'))).toBe('2026-11-20');
    expect(japanDay(new Date('2026-11-20T15:00:00Z'))).toBe('2026-11-21');
    expect(japanDay(Date.parse('2026-12-31T15:30:00Z'))).toBe('2027-01-01');
  });

  it('addDays crosses months and years', () => {
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-05-10', -29)).toBe('2026-04-11');
  });
});
