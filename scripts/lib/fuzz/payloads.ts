/**
 * The malformed material the fuzz run sends. Strings are latin1 "byte strings" when they go on
 * the wire as they are (paths, raw requests): one char per byte, so invalid UTF-8 survives.
 */

/** UTF-8 bytes of a string, as a latin1 byte string. */
export const utf8 = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

export const INJECTIONS = [
  "' OR 1=1--",
  '%\' ; DROP TABLE "user"; --',
  "1'::int--",
  "'::regclass::text||'",
  '1; SELECT pg_sleep(5)--',
  '") OR ("a"="a',
  '{"$gt":""}',
  '{"$ne":null}',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(document.cookie)',
  '../../../../etc/passwd',
  '..%2f..%2f..%2fetc%2fpasswd',
  '....//....//etc/passwd',
  '${7*7}{{7*7}}',
  '__proto__',
  'constructor',
  'C:\\Windows\\win.ini',
  '\\\\evil.example\\share',
] as const;

/** Odd but valid Unicode (sent as UTF-8). */
export const ODD_UNICODE = [
  '\u202Egnp.exe', // RTL override
  'a\u200Bb\u200Dc\uFEFF', // zero-width
  'が', // NFC
  'か\u3099', // NFD of the same
  'e\u0301',
  '👩‍👩‍👧‍👦🇯🇵',
  '𠮷野家',
  'ｓｅｌｅｃｔ＜ｓｃｒｉｐｔ＞',
  'Z̴̡̢͓̈́a̸̛͖l̵g̶o̷',
  '\u0000',
  '\uFFFF\uFFFE\uFDD0',
  '\u2028\u2029',
  '\u0085',
  'İı',
  'ß'.repeat(100),
] as const;

/** Byte sequences that are not UTF-8 (latin1 byte strings). */
export const BAD_UTF8 = [
  '\xED\xA0\x80', // a lone high surrogate, CESU-style
  '\xED\xB0\x80', // a lone low surrogate
  '\xC0\xAF', // overlong "/"
  '\xE0\x80\xAF', // overlong "/", 3 bytes
  '\xFF\xFE',
  '\x80',
  '\xF4\x90\x80\x80', // above U+10FFFF
  '\xF0\x9F\x98', // a truncated emoji
] as const;

export const BAD_PERCENT = [
  '%',
  '%%',
  '%E0%A4%A',
  '%00',
  '%2e%2e%2f',
  '%2e%2e/',
  '%252e%252e%252f',
  '%C0%AF',
  '%ED%A0%80',
  '%uD800',
  '%FF%FE',
  '%0d%0aSet-Cookie:%20x=1',
  '%2F',
  'a%',
  '%g0',
  '%E3%81',
] as const;

/** Values that end up in headers (redirect targets, `next`). */
export const REDIRECT_TARGETS = [
  'http://evil.example/',
  '//evil.example',
  '/\\evil.example',
  '\\/evil.example',
  'javascript:alert(1)',
  'https:evil.example',
  '/%0d%0aSet-Cookie:%20pwn=1',
  '/\r\nSet-Cookie: pwn=1',
  '/ok\r\nLocation: http://evil.example',
  `/${'a'.repeat(9000)}`,
] as const;

export const JUNK_IDS = [
  '',
  '0',
  '-1',
  '9'.repeat(40),
  'NaN',
  'null',
  'undefined',
  '..',
  '%2e%2e',
  'a'.repeat(3000),
  "x' OR '1'='1",
  '<svg onload=alert(1)>',
  '記事',
  '%F0%9F%98%80',
  '1e308',
  'true',
  '[object Object]',
] as const;

/** Deeply nested JSON, broken JSON and type confusion. */
export function jsonBodies(depth: number): string[] {
  return [
    '['.repeat(depth) + ']'.repeat(depth),
    '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
    '['.repeat(depth),
    '{',
    '{"a":}',
    "{'title':'x'}",
    '{"title":"x",}',
    'NaN',
    '\uFEFF{"title":"x"}',
    '{"title":"\\ud800"}',
    '{"title":"\\u00"}',
    '1e999999',
    '-',
    '',
    '[]',
    'null',
    '"string"',
    '{"__proto__":{"isAdmin":true},"title":"x"}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    '{"$gt":""}',
    '{"title":{"$ne":null}}',
    '{"id":123456789012345678901234567890}',
    '{"title":"x","title":"y"}',
    `{"title":"${'\\u0000'.repeat(50)}"}`,
    '{"limit":-1,"offset":1e400}',
  ];
}

/** A JSON body of known fields, each given a value of the wrong type (or a right one). */
export function typeConfusedValue(pick: <T>(items: readonly T[]) => T): unknown {
  return pick<unknown>([
    null,
    true,
    0,
    -1,
    1e308,
    Number.MAX_SAFE_INTEGER + 2,
    '',
    [],
    [[]],
    {},
    { $gt: '' },
    ['a', 'b'],
    'x'.repeat(70_000),
    pick(INJECTIONS),
    pick(ODD_UNICODE),
    '2026-13-45T25:61:00Z',
    { id: pick(JUNK_IDS) },
  ]);
}

/** Framework headers a request should not be able to steer the server with. */
export function frameworkHeaders(
  pick: <T>(items: readonly T[]) => T,
  path: string,
): [string, string][] {
  return pick<[string, string][]>([
    [['x-middleware-subrequest', 'middleware:middleware:middleware:middleware:middleware']],
    [['x-middleware-subrequest', 'src/middleware:src/middleware:src/middleware']],
    [['x-middleware-subrequest', 'proxy:proxy:proxy:proxy:proxy']],
    [['rsc', '1']],
    [
      ['rsc', '1'],
      ['next-router-state-tree', pick(['junk', '%7B', '[[[[', '["",{"children":1}]', '%'])],
    ],
    [['next-router-prefetch', '1']],
    [['next-router-segment-prefetch', '/_tree']],
    [['next-action', pick(['junk', '0'.repeat(40), 'a'.repeat(42), '../x', ''])]],
    [
      ['next-action', '7f' + '0'.repeat(40)],
      ['content-type', 'text/plain;charset=UTF-8'],
    ],
    [['x-nextjs-data', '1']],
    [['purpose', 'prefetch']],
    [['x-invoke-path', '/admin']],
    [['x-invoke-query', '%7B%22a%22%3A1%7D']],
    [['x-invoke-output', '/api/health']],
    [['x-matched-path', '/admin']],
    [['x-forwarded-host', 'evil.example']],
    [['x-forwarded-proto', 'javascript']],
    [['x-forwarded-for', "1.1.1.1, ' OR 1=1--, ::ffff:999.1.1.1"]],
    [['x-now-route-matches', '1']],
    [['next-url', path + '/../../admin']],
    [['x-prerender-revalidate', 'junk']],
    [['x-nextjs-rewrite', '/admin']],
    [['x-vercel-id', 'x'.repeat(5000)]],
    [['accept', 'text/x-component']],
    [['x-request-id', 'x'.repeat(10_000)]],
  ]);
}
