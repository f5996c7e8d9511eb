import { SNIPPET_LENGTH, highlight, queryTerms, segmentsText, snippet } from './snippet';

const marks = (segments: { text: string; match: boolean }[]) =>
  segments.filter((s) => s.match).map((s) => s.text);

const LONG_JA =
  '建物の良し悪しは、竣工写真よりも十年後の姿に表れる。外壁の汚れ方、植栽の育ち方、使い手が勝手に加えた棚や看板。' +
  '設計者が手放したあとに積み重なる小さな変化を受け止められるかどうかが、建築の懐の深さを決めている。' +
  '図面の段階でそれを想像できる設計者は、実はそれほど多くない。模型は、設計者が自分自身と対話するための道具である。' +
  'コンピューターで精密なパースが描ける時代になっても、多くの事務所が白い模型をつくり続けているのはそのためだ。' +
  '手で動かし、光にかざし、視点を低くして覗き込む。そうした身体的な確認を通じて、図面では見落としていた違和感が浮かび上がってくる。';

describe('queryTerms', () => {
  it('splits on any space, normalises and drops repeats', () => {
    expect(queryTerms('  模型　ＤＥＳＩＧＮ design  ')).toEqual(['模型', 'design']);
    expect(queryTerms('')).toEqual([]);
    expect(queryTerms('ｸﾞﾘｯﾄﾞ')).toEqual(['グリッド']);
  });
});

describe('snippet', () => {
  it('cuts about 120 characters of Japanese text around the first match of a two-character kanji word', () => {
    const segments = snippet(LONG_JA, queryTerms('模型'));
    const text = segmentsText(segments);
    // The window, plus an ellipsis at each cut end.
    expect([...text.replace(/…/g, '')].length).toBeLessThanOrEqual(SNIPPET_LENGTH);
    expect([...text.replace(/…/g, '')].length).toBeGreaterThan(SNIPPET_LENGTH - 10);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    // It is centred on the first match, from the start of a sentence.
    expect(text.startsWith('…図面の段階で')).toBe(true);
    expect(text).toContain('多くない。模型は、設計者が');
    // Every occurrence inside the window is marked, and only those.
    expect(marks(segments)).toEqual(['模型', '模型']);
    expect(segments.every((s) => !s.match || s.text === '模型')).toBe(true);
    // The segments are the original text, in order.
    expect(LONG_JA.includes(text.replace(/^…/, '').replace(/…$/, ''))).toBe(true);
  });

  it('finds a katakana word, also when the query is half-width', () => {
    const text =
      'ウェブサイトやアプリでは、画面幅に応じてレイアウトが組み替わる。グリッドシステムの考え方は、こうした環境でこそ真価を発揮する。';
    expect(marks(snippet(text, queryTerms('グリッドシステム')))).toEqual(['グリッドシステム']);
    expect(marks(snippet(text, queryTerms('ｸﾞﾘｯﾄﾞｼｽﾃﾑ')))).toEqual(['グリッドシステム']);
  });

  it('shows the text as written when only the normalised forms match', () => {
    // Half-width katakana with voiced marks in the text: one character each, kept as written.
    const text = '展覧会では、ｸﾞﾗﾌｨｯｸ、ﾌﾟﾛﾀﾞｸﾄ、空間の３部門に作品が並ぶ。';
    expect(marks(snippet(text, queryTerms('グラフィック プロダクト')))).toEqual([
      'ｸﾞﾗﾌｨｯｸ',
      'ﾌﾟﾛﾀﾞｸﾄ',
    ]);
    // A decomposed が (か + combining mark) is one character and matches が.
    expect(marks(snippet('かか\u3099みの前で', queryTerms('が')))).toEqual(['か\u3099']);
  });

  it('marks the katakana as written when the query is in hiragana', () => {
    const text = '書体と組版の現場から。タイポグラフィ研究者が、ﾀｲﾎﾟｸﾞﾗﾌｨの歴史を語る。';
    const segments = snippet(text, queryTerms('たいぽぐらふぃ'));
    expect(marks(segments)).toEqual(['タイポグラフィ', 'ﾀｲﾎﾟｸﾞﾗﾌｨ']);
    expect(segmentsText(segments)).toBe(text);
    expect(queryTerms('たいぽぐらふぃ ﾀｲﾎﾟｸﾞﾗﾌｨー')).toEqual(['タイポグラフィ']);
  });

  it('marks a word with its long vowel mark, however either side spells it', () => {
    const text = 'デザイナーの仕事。サーバ－の設定。ユーザ中心設計。';
    expect(marks(snippet(text, queryTerms('デザイナ')))).toEqual(['デザイナー']);
    expect(marks(snippet(text, queryTerms('ﾃﾞｻﾞｲﾅｰ')))).toEqual(['デザイナー']);
    // A dash typed for ー is part of the word.
    expect(marks(snippet(text, queryTerms('サーバー')))).toEqual(['サーバ－']);
    expect(marks(snippet(text, queryTerms('ゆーざー')))).toEqual(['ユーザ']);
    // Inside a word the mark is a letter: ビル is not ビール.
    expect(marks(snippet('ビールとビルの話', queryTerms('ビル')))).toEqual(['ビル']);
  });

  it('marks a short word typed with its ー only where that word is', () => {
    const text = 'カラフルな配色と、モノクロのカラー。バウハウスのバー';
    expect(marks(snippet(text, queryTerms('カラー')))).toEqual(['カラー']);
    expect(marks(snippet(text, queryTerms('ばー')))).toEqual(['バー']);
    expect(marks(snippet(text, queryTerms('カラ')))).toEqual(['カラ', 'カラー']);
  });

  it('matches full-width latin and digits, in any case', () => {
    const text =
      '東京で開催中の展覧会「ＤＥＳＩＧＮ　ＴＯＤＡＹ　２０２６」では、約120点の作品が並ぶ。';
    const segments = snippet(text, queryTerms('design 2026'));
    expect(marks(segments)).toEqual(['ＤＥＳＩＧＮ', '２０２６']);
    expect(
      marks(snippet('Bauhaus（バウハウス）は実験の場だった。', queryTerms('BAUHAUS'))),
    ).toEqual(['Bauhaus']);
    expect(marks(snippet('ＵＩ／ＵＸの分野', queryTerms('ui/ux')))).toEqual(['ＵＩ／ＵＸ']);
  });

  it('highlights every term of several, merging ones that overlap', () => {
    const text =
      '木造の公共建築が各地で増えている。構造用集成材やCLTの普及に加え、地域の森林資源を使うことが背景にある。';
    const segments = snippet(text, queryTerms('木造 cLt 森林資源 公共建築 建築'));
    expect(marks(segments)).toEqual(['木造', '公共建築', 'CLT', '森林資源']);
    expect(segmentsText(segments)).toBe(text);
    // Overlapping terms become one highlight.
    expect(marks(snippet('デザイナーの仕事', queryTerms('デザイ イナー')))).toEqual(['デザイナー']);
  });

  it('never ends inside a match: a word the window would cut is left out whole', () => {
    // The second デザイナー starts 3 characters before the window's end.
    const text = `デザイナー${'あ'.repeat(12)}デザイナー${'い'.repeat(20)}`;
    const segments = snippet(text, queryTerms('デザイナー'), { length: 20 });
    expect(marks(segments)).toEqual(['デザイナー']);
    expect(segmentsText(segments)).toBe(`デザイナー${'あ'.repeat(12)}…`);
  });

  it('returns text shorter than the window whole, without ellipses', () => {
    const text = '窓は外の世界との付き合い方。';
    const segments = snippet(text, queryTerms('窓'));
    expect(segmentsText(segments)).toBe(text);
    expect(segments).toEqual([
      { text: '窓', match: true },
      { text: 'は外の世界との付き合い方。', match: false },
    ]);
  });

  it('starts at the beginning when nothing matches', () => {
    const segments = snippet(LONG_JA, queryTerms('存在しない語'));
    const text = segmentsText(segments);
    expect(segments.every((s) => !s.match)).toBe(true);
    expect(text.startsWith('建物の良し悪しは')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(segmentsText(snippet(LONG_JA, []))).toBe(text);
  });

  it('keeps the last match in view near the end of the text, from a clean start', () => {
    const segments = snippet(LONG_JA, queryTerms('違和感'));
    const text = segmentsText(segments);
    expect(text.endsWith('浮かび上がってくる。')).toBe(true);
    expect(marks(segments)).toEqual(['違和感']);
    // The room before the match is used, starting after a sentence end.
    expect(text).toBe(
      '…コンピューターで精密なパースが描ける時代になっても、多くの事務所が白い模型をつくり続けているのはそのためだ。' +
        '手で動かし、光にかざし、視点を低くして覗き込む。そうした身体的な確認を通じて、図面では見落としていた違和感が浮かび上がってくる。',
    );
    expect([...text].length).toBeLessThanOrEqual(SNIPPET_LENGTH + 1);
  });

  it('starts after a phrase end when no sentence ends before the match', () => {
    const text = `${'あ'.repeat(80)}、見出しの文字組みについて考えるとき、${'い'.repeat(200)}`;
    expect(segmentsText(snippet(text, queryTerms('考える'))).startsWith('…見出しの文字組み')).toBe(
      true,
    );
    // No boundary at all: the cut stays where the context begins, half the room before.
    const plain = `${'う'.repeat(60)}考える${'え'.repeat(200)}`;
    expect(segmentsText(snippet(plain, queryTerms('考える')))).toMatch(/^…う{58}考える/);
  });

  it('never splits an emoji or a surrogate pair', () => {
    const text = `${'あ'.repeat(30)}👩‍🎨デザイン🎨${'い'.repeat(200)}`;
    const segments = snippet(text, queryTerms('デザイン'));
    const shown = segmentsText(segments);
    expect(shown).toContain('👩‍🎨デザイン🎨');
    expect(shown.isWellFormed()).toBe(true);
  });

  it('is empty for empty or blank text', () => {
    expect(snippet('', queryTerms('模型'))).toEqual([]);
    expect(snippet('   ', queryTerms('模型'))).toEqual([]);
  });

  it('is fast on a very long body', () => {
    const body = `${'設計の現場から。'.repeat(25_000)}最後に模型。`;
    const started = performance.now();
    expect(marks(snippet(body, queryTerms('模型')))).toEqual(['模型']);
    // Read by its kanji's readings too.
    const readings = [
      ['設計', 'セッケイ'],
      ['現場', 'ゲンバ'],
      ['模型', 'モケイ'],
      ['最後', 'サイゴ'],
    ] as const;
    expect(marks(snippet(body, queryTerms('もけい'), { readings }))).toEqual(['模型']);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('highlight', () => {
  it('marks the terms in a whole title', () => {
    expect(highlight('余白を残すポスター、情報を削る勇気', queryTerms('ポスター 余白'))).toEqual([
      { text: '余白', match: true },
      { text: 'を残す', match: false },
      { text: 'ポスター', match: true },
      { text: '、情報を削る勇気', match: false },
    ]);
    expect(highlight('タイトル', [])).toEqual([{ text: 'タイトル', match: false }]);
  });
});

describe('highlighting kanji found by their reading', () => {
  // How the kanji of the item read, as the index stores them (search/words.ts).
  const READINGS = [
    ['漆', 'ウルシ'],
    ['塗', 'ヌ'],
    ['器', 'ウツワ'],
    ['温', 'アタタ'],
    ['紙', 'カミ'],
    ['神', 'カミ'],
    ['上', 'ウエ'],
  ] as const;

  it('marks the kanji a kana term reads, in a title', () => {
    expect(highlight('漆塗りの器', queryTerms('うるし'), READINGS)).toEqual([
      { text: '漆', match: true },
      { text: '塗りの器', match: false },
    ]);
    // Across words and their kana: 漆 + 塗 + り.
    expect(marks(highlight('漆塗りの器', queryTerms('うるしぬり'), READINGS))).toEqual(['漆塗り']);
    // A katakana or half-width query reads the same.
    expect(marks(highlight('漆塗りの器', queryTerms('ｳﾙｼ'), READINGS))).toEqual(['漆']);
  });

  it('marks 紙 and 神 for かみ, and only the かみ of 温かみ', () => {
    expect(marks(highlight('温かみのある紙と神の話', queryTerms('かみ'), READINGS))).toEqual([
      'かみ',
      '紙',
      '神',
    ]);
    // 上 reads ウエ here: it is not marked for かみ; where it was read カミ, it is.
    expect(marks(highlight('上の紙', queryTerms('かみ'), READINGS))).toEqual(['紙']);
    expect(
      marks(highlight('上の紙', queryTerms('かみ'), [...READINGS, ['上', 'カミ'] as const])),
    ).toEqual(['上', '紙']);
  });

  it('reads a word as the analyser cut it: 漆器 is しっき, not 漆 + 器', () => {
    const readings = [...READINGS, ['漆器', 'シッキ'] as const];
    expect(highlight('漆器と漆', queryTerms('うるし'), readings)).toEqual([
      { text: '漆器と', match: false },
      { text: '漆', match: true },
    ]);
    expect(marks(highlight('漆器と漆', queryTerms('しっき'), readings))).toEqual(['漆器']);
    expect(marks(highlight('漆器と漆', queryTerms('うつわ'), readings))).toEqual([]);
  });

  it('marks nothing by reading without readings, or for a term that is not kana', () => {
    expect(marks(highlight('漆塗りの器', queryTerms('うるし')))).toEqual([]);
    expect(marks(highlight('漆塗りの器', queryTerms('漆 器'), READINGS))).toEqual(['漆', '器']);
    expect(marks(highlight('漆塗りの器', queryTerms('うるしa'), READINGS))).toEqual([]);
  });

  it('centres the snippet on a kanji found by its reading, with text on both sides', () => {
    const text = `${'あ'.repeat(300)}漆${'い'.repeat(300)}`;
    const segments = snippet(text, queryTerms('うるし'), { readings: READINGS });
    expect(marks(segments)).toEqual(['漆']);
    const shown = segmentsText(segments);
    expect(shown).toMatch(/^…あ+漆い+…$/);
    const [before = '', after = ''] = shown.replace(/…/g, '').split('漆');
    expect(before.length + 1 + after.length).toBeLessThanOrEqual(SNIPPET_LENGTH);
    expect(Math.abs(before.length - after.length)).toBeLessThanOrEqual(1);
  });
});

describe('snippet window', () => {
  it('centres on the first match, written form too', () => {
    const text = `${'あ'.repeat(300)}模型${'い'.repeat(300)}模型${'う'.repeat(300)}`;
    const segments = snippet(text, queryTerms('模型'));
    expect(marks(segments)).toEqual(['模型']);
    const [before = '', after = ''] = segmentsText(segments).replace(/…/g, '').split('模型');
    expect(before).toMatch(/^あ+$/);
    expect(after).toMatch(/^い+$/);
    expect(Math.abs(before.length - after.length)).toBeLessThanOrEqual(1);
  });

  it('cuts between characters: never inside a combining sequence or a surrogate pair', () => {
    const ga = 'か\u3099';
    for (const pad of [ga, '𠮷', '👩‍🎨', 'e\u0301']) {
      for (const shift of [0, 1, 2, 3]) {
        const text = `${pad.repeat(200 + shift)}漆${pad.repeat(200)}`;
        const shown = segmentsText(
          snippet(text, queryTerms('うるし'), { readings: [['漆', 'ウルシ']] }),
        );
        expect(shown.isWellFormed(), pad).toBe(true);
        const [before = '', after = ''] = shown.replace(/…/g, '').split('漆');
        // Whole characters only, as many as fit on each side.
        expect(
          before.split(pad).every((part) => part === ''),
          pad,
        ).toBe(true);
        expect(
          after.split(pad).every((part) => part === ''),
          pad,
        ).toBe(true);
        expect(before.length, pad).toBeGreaterThan(0);
        expect(after.length, pad).toBeGreaterThan(0);
      }
    }
  });
});
