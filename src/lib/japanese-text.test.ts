import { foldForSearch, foldTerm, foldUnits } from './japanese-text';

/** Whether a search for `term` finds `text`: the test the index and the highlighting make. */
const finds = (text: string, term: string) => foldForSearch(text).includes(foldTerm(term));

describe('foldForSearch', () => {
  it.each([
    // Hiragana and katakana are one script for search.
    ['たいぽぐらふぃ', 'タイポグラフィ'],
    ['タイポグラフィ', 'タイポグラフィ'],
    ['ゔぁいおりん', 'ヴァイオリン'],
    ['いすゞ', 'イスヾ'],
    // Half-width katakana, with its voiced and semi-voiced marks joined.
    ['ﾀｲﾎﾟｸﾞﾗﾌｨ', 'タイポグラフィ'],
    ['ｶﾀｶﾅ', 'カタカナ'],
    ['ﾃﾞｻﾞｲﾅｰ', 'デザイナー'],
    ['ﾎﾟｽﾀｰ', 'ポスター'],
    // A decomposed が (か + combining mark).
    ['か\u3099', 'ガ'],
    // Full-width latin and digits, and case.
    ['ＡＢＣ', 'abc'],
    ['ABC', 'abc'],
    ['２０２６年', '2026年'],
    ['ＵＩ／ＵＸ', 'ui/ux'],
    // Every spelling of the long vowel mark after kana is ー; a run of marks counts once.
    ['デザイナー', 'デザイナー'],
    ['デザイナｰ', 'デザイナー'],
    ['デザイナ－', 'デザイナー'],
    ['デザイナ-', 'デザイナー'],
    ['デザイナ‐', 'デザイナー'],
    ['デザイナ～', 'デザイナー'],
    ['デザイナ〜', 'デザイナー'],
    ['でざいなー', 'デザイナー'],
    ['サ－バ', 'サーバ'],
    ['ｻｰﾊﾞｰ', 'サーバー'],
    ['すごーーい', 'スゴーイ'],
    ['デザイナー〜〜', 'デザイナー'],
    // A dash that is not after kana stays a dash: a range, a date, a code.
    ['10〜20', '10〜20'],
    ['2026-01-01', '2026-01-01'],
    ['東京〜大阪', '東京〜大阪'],
    ['a-b', 'a-b'],
    ['カ - ナ', 'カ - ナ'],
    // Whitespace of any width collapses.
    ['  現代\n\t建築　 の\u00a0潮流 ', '現代 建築 ノ 潮流'],
    // Squared words are folded as their letters.
    ['㌍', 'カロリー'],
    ['㍍法', 'メートル法'],
  ])('folds %s to %s', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded);
  });

  it('changes nothing when folded twice', () => {
    for (const text of [
      'デザイナー - ｻｰﾊﾞｰ〜 すごーーい ㌍ ㍍ か\u3099ー A-ー ー-カ',
      'か-a か~ 〜〜 ー ーー -',
      'e\u0301 İ ß ﬁ 🎨 👩\u200d🎨',
    ]) {
      const once = foldForSearch(text);
      expect(foldForSearch(once)).toBe(once);
    }
  });

  it('never throws on odd input', () => {
    for (const text of ['', '\uD800', '\uDC00ー', 'ー', 'ーー', '-', '\u3099', 'ﾞ', '\u0000', '゛'])
      expect(typeof foldForSearch(text)).toBe('string');
    expect(foldForSearch('a'.repeat(100_000))).toHaveLength(100_000);
  });
});

describe('foldTerm', () => {
  it.each([
    // A word of three morae or more is written with or without its final ー: the term drops it.
    ['デザイナー', 'デザイナ'],
    ['ﾃﾞｻﾞｲﾅｰ', 'デザイナ'],
    ['でざいなー', 'デザイナ'],
    ['たいぽぐらふぃー', 'タイポグラフィ'],
    ['サーバー', 'サーバ'],
    ['ユーザ－', 'ユーザ'],
    ['メモリ～', 'メモリ'],
    // A shorter word is always written with it, and keeps it.
    ['カラー', 'カラー'],
    ['ｶﾗｰ', 'カラー'],
    ['バー', 'バー'],
    ['ティー', 'ティー'],
    ['エラー', 'エラー'],
    // Nothing else changes.
    ['サーバ', 'サーバ'],
    ['デザイナーズ', 'デザイナーズ'],
    ['東京ー', '東京ー'],
    ['ー', 'ー'],
    ['ＡＢＣ', 'abc'],
  ])('looks %s up as %s', (term, folded) => {
    expect(foldTerm(term)).toBe(folded);
  });
});

describe('what a term finds', () => {
  it.each([
    ['タイポグラフィの歴史', 'たいぽぐらふぃ'],
    ['タイポグラフィの歴史', 'たいぽぐらふぃー'],
    ['タイポグラフィの歴史', 'ﾀｲﾎﾟｸﾞﾗﾌｨ'],
    ['たいぽぐらふぃの歴史', 'タイポグラフィ'],
    ['ｸﾞﾗﾌｨｯｸデザイナー', 'グラフィック'],
    ['グラフィックデザイナー', 'ｸﾞﾗﾌｨｯｸ'],
    ['グラフィックデザイナーの仕事', 'デザイナ'],
    ['グラフィックデザイナーの仕事', 'デザイナー'],
    ['グラフィックデザイナの仕事', 'デザイナー'],
    ['グラフィックデザイナーの仕事', 'ﾃﾞｻﾞｲﾅｰ'],
    ['デザイナ－の仕事', 'デザイナー'],
    ['Web サーバーの設定', 'サーバ'],
    ['Web サーバの設定', 'サーバー'],
    ['サーバー', 'さーば'],
    ['ラーメン屋', 'らーめん'],
    ['すごーーい', 'すごーい'],
    ['DESIGN TODAY 2026', 'ｄｅｓｉｇｎ'],
    ['会期は２０２６年', '2026年'],
    ['カラーの配色', 'カラー'],
    ['配色とカラー。', 'からー'],
    ['ミルクティーを飲む', 'ティー'],
    ['スポーツカーの展示', 'カー'],
    // A term cut inside a word still finds it.
    ['ユーザー中心設計', 'ーザー'],
    ['ユーザー中心設計', 'ザー中心'],
  ])('%s is found by %s', (text, term) => {
    expect(finds(text, term)).toBe(true);
  });

  it.each([
    // Different letters stay different: voiced marks, small kana, sokuon.
    ['ハイク', 'バイク'],
    ['バイク', 'はいく'],
    ['パン', 'ばん'],
    ['フアン', 'ファン'],
    ['キッテ', 'きて'],
    // Inside a word ー is a letter.
    ['ビール', 'ビル'],
    ['ボール', 'ボル'],
    ['シンボル', 'ボール'],
    // A short word keeps its ー: not the start of a longer word, nor a particle.
    ['カラフルな', 'カラー'],
    ['バウハウスから現代へ', 'カラー'],
    ['バウハウス', 'バー'],
    ['ティッシュ', 'ティー'],
    ['ですか。', 'カー'],
    // Hiragana is not folded into kanji, nor latin into kana.
    ['漢字', 'かんじ'],
    ['design', 'デザイン'],
  ])('%s is not found by %s', (text, term) => {
    expect(finds(text, term)).toBe(false);
  });
});

describe('foldUnits', () => {
  it('keeps each unit as written beside what it folds to', () => {
    expect(foldUnits('ﾃﾞｻﾞｲﾅｰ。')).toEqual([
      { text: 'ﾃﾞ', folded: 'デ', longVowel: false },
      { text: 'ｻﾞ', folded: 'ザ', longVowel: false },
      { text: 'ｲ', folded: 'イ', longVowel: false },
      { text: 'ﾅ', folded: 'ナ', longVowel: false },
      { text: 'ｰ', folded: 'ー', longVowel: true },
      { text: '。', folded: '。', longVowel: false },
    ]);
  });

  it('marks a dash after kana as a long vowel, and a dash elsewhere not', () => {
    const units = foldUnits('サ－－バ 1－2');
    expect(units.map((u) => [u.text, u.folded, u.longVowel])).toEqual([
      ['サ', 'サ', false],
      ['－', 'ー', true],
      ['－', '', true],
      ['バ', 'バ', false],
      [' ', ' ', false],
      ['1', '1', false],
      ['－', '-', false],
      ['2', '2', false],
    ]);
  });

  it('folds to the same text as foldForSearch, and keeps the text as written', () => {
    const text = '  ｸﾞﾗﾌｨｯｸデザイナー、サーバ～の\n\n設定 ＡＢＣ  ';
    const units = foldUnits(text);
    expect(
      units
        .map((u) => u.folded)
        .join('')
        .trim(),
    ).toBe(foldForSearch(text));
    expect(units.map((u) => u.text).join('')).toBe(text);
  });
});
