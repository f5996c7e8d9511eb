import { describe, expect, it } from 'vitest';
import { NEXT_PATH_MAX, safeNextPath } from './safe-next';

const SITE = 'https://axis.example.jp';

/** What a browser would open for a Location header: the only thing that matters. */
const landsOn = (location: string) => new URL(location, SITE).origin;

describe('safeNextPath', () => {
  it('keeps paths on the site, with their query and fragment', () => {
    expect(safeNextPath('/posts/x', SITE)).toBe('/posts/x');
    expect(safeNextPath('/posts/p1?ref=home#comments', SITE)).toBe('/posts/p1?ref=home#comments');
    expect(safeNextPath('/account/edit', SITE)).toBe('/account/edit');
    expect(safeNextPath('/', SITE)).toBe('/');
    // What the account menu sends (encodeURIComponent of the pathname, decoded by the query).
    expect(safeNextPath('/search?q=%E3%83%87%E3%82%B6%E3%82%A4%E3%83%B3', SITE)).toBe(
      '/search?q=%E3%83%87%E3%82%B6%E3%82%A4%E3%83%B3',
    );
    // Japanese as typed comes back percent-encoded, which is still the same page.
    expect(safeNextPath('/search?q=デザイン', SITE)).toBe(
      '/search?q=%E3%83%87%E3%82%B6%E3%82%A4%E3%83%B3',
    );
  });

  it('answers / for nothing usable', () => {
    for (const raw of [undefined, null, '', 42, ['/posts/x'], {}])
      expect(safeNextPath(raw, SITE)).toBe('/');
  });

  // Each of these has sent someone to another site from some login page.
  const bypasses = [
    '//evil.example',
    '//evil.example/x',
    '/\\evil.example',
    '\\\\/evil.example',
    '\\/evil.example',
    '/%09/evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/%0A/evil',
    '/%0D/evil',
    '/%00/evil.example',
    '/\u0000/evil.example',
    '/\u007f/evil.example',
    '/\u0085/evil.example',
    '/%C2%85/evil.example',
    '/%7F/evil.example',
    '\n/evil',
    '%0A/evil',
    ' //evil.example',
    '%2F%2Fevil.example',
    '/%2F/evil.example',
    '/%2f%2fevil.example',
    '/%5Cevil.example',
    '/%5C%5Cevil.example',
    '///evil.example',
    '////evil.example',
    '/.//evil.example',
    '/..//evil.example',
    '/%2e//evil.example',
    '/%2e%2e//evil.example',
    'https://evil.example',
    'HTTPS://evil.example',
    'http:evil.example',
    'http:/evil.example',
    'https:/\\evil.example',
    'https:\\\\evil.example',
    '//evil.example@axis.example.jp',
    'https://axis.example.jp@evil.example',
    'https://axis.example.jp.evil.example/',
    'http://axis.example.jp.evil.example',
    'https://user:pass@axis.example.jp/account',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'evil.example',
    '〳evil.example',
    '/／evil.example',
    '／／evil.example',
    '/＼evil.example',
    '＼＼evil.example',
    '/%EF%BC%8Fevil.example',
    '/%C2%9B/evil.example',
    '/%ZZ/broken-encoding',
  ];

  it.each(bypasses)('refuses %j', (raw) => {
    const result = safeNextPath(raw, SITE);
    expect(result).toBe('/');
  });

  it('never answers something a browser would open elsewhere, or a header cannot carry', () => {
    for (const raw of bypasses) {
      const result = safeNextPath(raw, SITE);
      expect(landsOn(result)).toBe(new URL(SITE).origin);
      expect(result).toMatch(/^\/(?![/\\])[\x21-\x7e]*$|^\/$/);
    }
  });

  it('keeps harmless look-alikes on the site', () => {
    // A dot or an @ in a path is only a path.
    expect(safeNextPath('/.evil.example', SITE)).toBe('/.evil.example');
    expect(safeNextPath('/@evil.example', SITE)).toBe('/@evil.example');
    expect(safeNextPath('/evil.example', SITE)).toBe('/evil.example');
    expect(safeNextPath('/posts/../account', SITE)).toBe('/account');
    expect(safeNextPath('/x?next=//evil.example', SITE)).toBe('/x?next=//evil.example');
    for (const path of ['/.evil.example', '/@evil.example', '/posts/../account'])
      expect(landsOn(safeNextPath(path, SITE))).toBe(SITE);
  });

  it('refuses a value longer than any page of the site', () => {
    expect(safeNextPath(`/${'a'.repeat(NEXT_PATH_MAX)}`, SITE)).toBe('/');
    expect(safeNextPath(`/${'%2F'.repeat(100_000)}`, SITE)).toBe('/');
    expect(safeNextPath(`/${'a'.repeat(NEXT_PATH_MAX - 2)}`, SITE)).toHaveLength(NEXT_PATH_MAX - 1);
  });

  it('judges against the configured site, whatever its host', () => {
    expect(safeNextPath('/posts/x', 'http://localhost:3000')).toBe('/posts/x');
    expect(safeNextPath('http://localhost:3000/posts/x', 'http://localhost:3000')).toBe('/');
    expect(safeNextPath('//localhost:3000/posts/x', 'http://localhost:3000')).toBe('/');
    expect(safeNextPath('/posts/x', 'not a url')).toBe('/');
  });
});
