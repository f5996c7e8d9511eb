import { afterAll, describe, expect, it } from 'vitest';
import { readingOf, readingsOf, stopReadings } from './readings';

afterAll(() => stopReadings());

describe('readingOf', () => {
  it('replaces kanji words by their reading and keeps kana, in hiragana', () => {
    expect(
      readingOf([
        { surface: '漆', reading: 'ウルシ' },
        { surface: 'の', reading: 'ノ' },
        { surface: 'デザイン', reading: null },
      ]),
    ).toBe('うるしのでざいん');
  });

  it('breaks the reading where a word has none (Latin, digits, an unknown kanji word)', () => {
    expect(
      readingOf([
        { surface: '和紙', reading: 'ワシ' },
        { surface: 'and', reading: null },
        { surface: '𠮷', reading: null },
        { surface: '紙', reading: 'カミ' },
      ]),
    ).toBe('わし かみ');
  });

  it('has nothing to add for a text without kanji', () => {
    expect(readingOf([{ surface: 'うるし', reading: 'ウルシ' }])).toBe('');
  });
});

describe('readingsOf (the analyser in its child process)', () => {
  it('reads 漆, 紙 and mixed text; kana-only and Latin texts need no analyser', async () => {
    expect(await readingsOf(['漆', '紙', '漆の器と和紙、2026年', 'うるし', 'Design'])).toEqual([
      'うるし',
      'かみ',
      'うるしのうつわとわし ねん',
      '',
      '',
    ]);
  }, 30_000);
});
