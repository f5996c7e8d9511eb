import { describe, expect, it } from 'vitest';
import { readCookieHeader } from './cookies';

describe('readCookieHeader', () => {
  it('reads cookies as better-auth reads them', () => {
    expect(readCookieHeader(undefined)).toEqual(new Map());
    expect(readCookieHeader('_ga=GA1.1; axis.session_token=abc.def')).toEqual(
      new Map([
        ['_ga', 'GA1.1'],
        ['axis.session_token', 'abc.def'],
      ]),
    );
    expect(readCookieHeader('a=1;b=2')?.size).toBe(2);
    expect(readCookieHeader('a="1"')?.get('a')).toBe('1');
  });

  it.each([
    // better-auth trims the name: a session to it, not to a pattern that wants `name=`.
    'axis.session_token =TOKEN',
    'axis.session_token\t=TOKEN',
    '_ga=1; axis.session_token  =TOKEN',
    // Names given twice: which one a reader keeps is the reader's choice.
    'axis.session_token=a; axis.session_token=b',
    '_ga=1; _ga=2',
    // Pairs better-auth drops, which another parser may read.
    'axis.session_token',
    'a b=1',
    'axis_preview={"a":1}',
    'x=\u0000',
  ])('refuses %j: a parser could read it differently', (header) => {
    expect(readCookieHeader(header)).toBeNull();
  });
});
