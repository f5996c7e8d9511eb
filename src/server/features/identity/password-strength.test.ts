import { describe, expect, it } from 'vitest';
import * as zxcvbnEn from '@zxcvbn-ts/language-en';
import * as zxcvbnJa from '@zxcvbn-ts/language-ja';
import { estimatePassword } from './password-strength';

// @zxcvbn-ts/language-ja has no 4.x release: 3.0.2 (word lists and feedback strings, no code)
// is used with core 4 (docs/decisions/016-libraries.md). These keep that pairing honest.
describe('the Japanese zxcvbn package beside core 4', () => {
  function keysOf(value: object, prefix = ''): string[] {
    return Object.entries(value).flatMap(([key, inner]) =>
      typeof inner === 'object' && inner !== null
        ? keysOf(inner as object, `${prefix}${key}.`)
        : [`${prefix}${key}`],
    );
  }

  it('translates every message core 4 gives (the same keys as the 4.x English package)', () => {
    expect(keysOf(zxcvbnJa.translations).sort()).toEqual(keysOf(zxcvbnEn.translations).sort());
  });

  function dictionaries(password: string): unknown[] {
    return estimatePassword(password, []).sequence.map((match) =>
      'dictionaryName' in match ? (match.dictionaryName as unknown) : null,
    );
  }

  it('finds romanised Japanese names and words in its dictionaries', () => {
    expect(dictionaries('yamamoto')).toContain('lastnames-ja');
    expect(estimatePassword('yamamoto', []).feedback.warning).toMatch(/[ぁ-んァ-ン一-龥]/u);
    expect(dictionaries('akihiro')).toContain('firstnames-ja');
  });
});
