import { afterAll, describe, expect, it } from 'vitest';
import { analyseTexts, readingOf, stopReadings } from './readings';

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

describe('analyseTexts (the analyser in its child process)', () => {
  it('reads 漆, 紙 and mixed text; kana-only and Latin texts need no analyser', async () => {
    const analyses = await analyseTexts(['漆', '紙', '漆の器と和紙、2026年', 'うるし', 'Design']);
    expect(analyses.map((a) => a.reading)).toEqual([
      'うるし',
      'かみ',
      'うるしのうつわとわし ねん',
      '',
      '',
    ]);
    // The words and the kanji's readings come with them, folded as the index folds.
    expect(analyses[2]!.words).toEqual(
      expect.arrayContaining(['漆', 'ウルシ', '器', 'ウツワ', '和紙', 'ワシ', '2026']),
    );
    expect(analyses[2]!.pairs).toEqual(
      expect.arrayContaining([
        ['漆', 'ウルシ'],
        ['和紙', 'ワシ'],
      ]),
    );
    expect(analyses[3]).toEqual({ reading: '', words: ['ウルシ'], pairs: [] });
    expect(analyses[4]).toEqual({ reading: '', words: ['design'], pairs: [] });
  }, 30_000);
});
