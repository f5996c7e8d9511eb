import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  analyseTexts,
  analyserLoaded,
  readingOf,
  setReadingsIdleMs,
  stopReadings,
} from './readings';

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

describe('analyseTexts', () => {
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

describe('the dictionary (loaded on demand, let go when idle)', () => {
  afterEach(() => setReadingsIdleMs(null));

  it('is let go after its idle time and loaded again for the next text', async () => {
    setReadingsIdleMs(50);
    // Texts no earlier test read: a stored paragraph would not load it.
    expect((await analyseTexts(['藍染']))[0]!.reading).toBe('あいぞめ');
    expect(analyserLoaded()).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(analyserLoaded()).toBe(false);
    expect((await analyseTexts(['組子']))[0]!.reading).toBe('くみこ');
    expect(analyserLoaded()).toBe(true);
  }, 30_000);

  it('answers a text asked for right after it was let go, and one asked for while it loads', async () => {
    await analyseTexts(['漆器']);
    stopReadings();
    const [a, b] = await Promise.all([analyseTexts(['工芸']), analyseTexts(['陶磁器'])]);
    expect(a[0]!.reading).toBe('こうげい');
    expect(b[0]!.reading).toBe('とうじき');
  }, 30_000);
});

describe('stored analyses (a text read once is not read again)', () => {
  it('reuses the words of each paragraph it has read: only new text starts the analyser', async () => {
    const first = await analyseTexts(['漆の器 和紙の本']);
    stopReadings();
    // The same paragraphs, one of them with a counter after it: no analyser is needed.
    const again = await analyseTexts(['漆の器 和紙の本 2026', '和紙の本']);
    expect(analyserLoaded()).toBe(false);
    expect(again[0]!.reading).toBe(first[0]!.reading);
    expect(again[0]!.pairs).toEqual(first[0]!.pairs);
    expect(again[0]!.words).toEqual(expect.arrayContaining([...first[0]!.words, '2026']));
    expect(again[1]!.reading).toBe('わしのほん');
    // A changed paragraph is read.
    expect((await analyseTexts(['漆の器 紙の本']))[0]!.reading).toBe('うるしのうつわ かみのほん');
    expect(analyserLoaded()).toBe(true);
  }, 30_000);

  it('reads a text whole as before: the words and readings of paragraphs together', async () => {
    const [analysis] = await analyseTexts(['展覧会の記録\n\n写真と映像、2026年の工芸']);
    expect(analysis!.reading).toBe('てんらんかいのきろく しゃしんとえいぞう ねんのこうげい');
    expect(analysis!.words).toEqual(
      expect.arrayContaining([
        '展覧',
        'テンラン',
        '記録',
        'キロク',
        '写真',
        '2026',
        '工芸',
        'コウゲイ',
      ]),
    );
  }, 30_000);
});
