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
    // It starts at the sentence that holds the first match.
    expect(text.startsWith('…模型は、設計者が')).toBe(true);
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
    const segments = snippet(text, queryTerms('デザイナー'), 20);
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
    const text = `${'あ'.repeat(40)}、見出しの文字組みについて考えるとき、${'い'.repeat(200)}`;
    expect(segmentsText(snippet(text, queryTerms('考える'))).startsWith('…見出しの文字組み')).toBe(
      true,
    );
    // No boundary at all: the cut stays where the context begins.
    const plain = `${'う'.repeat(60)}考える${'え'.repeat(200)}`;
    expect(segmentsText(snippet(plain, queryTerms('考える')))).toMatch(/^…う{24}考える/);
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
