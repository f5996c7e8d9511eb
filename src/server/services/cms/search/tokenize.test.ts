import { mulberry32 } from '@test-support/seeded-random';
import { foldTerm } from '@/lib/japanese-text';
import {
  htmlToText,
  indexTokens,
  MAX_INDEX_TOKENS,
  MAX_QUERY_TERMS,
  normalizeForSearch,
  queryTokens,
  splitQuery,
} from './tokenize';

const SAMPLE = `
現代建築の潮流を読み解く ― バウハウスから２０２６年のデザインへ

1919年、ヴァイマルに開校したBauhaus（バウハウス）は、工芸と工業を結びつける実験の場だった。
グラフィックデザイナーのヘルベルト・バイヤーが手がけたユニバーサル書体は、小文字だけで
構成されるという大胆な提案で、いまもタイポグラフィの教科書に載っている。

東京・六本木で開催中の展覧会「ＤＥＳＩＧＮ\u3000ＴＯＤＡＹ\u3000２０２６」では、ｸﾞﾗﾌｨｯｸ、ﾌﾟﾛﾀﾞｸﾄ、
空間の３部門に約120点の作品が並ぶ。会期は2026年4月1日〜6月30日、入場料は一般1,500円。
キュレーターの佐々木さんは「デザインは問いを立てる行為です」と語る。

木造の再評価も進んでいる。CLT（直交集成板）を使った中高層建築は、脱炭素の文脈で注目を集め、
Café や Tokyo Midtown の事例とともに紹介された。UI/UX の分野でも、Figma や Adobe XD を使った
プロトタイピングが当たり前になり、ウェブデザインと建築設計の距離は縮まりつつある。🎨

最後に、読者アンケートの結果を紹介しよう。回答者の６８％が「ミニマリズム」に関心があると答え、
「サステナブル」「ｴｼｶﾙ」「ユーザー中心設計」が続いた。
`;

/** True when the term, folded as a query term, is a substring of the folded text (the premise of soundness). */
function occursIn(text: string, term: string): boolean {
  return normalizeForSearch(text).includes(foldTerm(term));
}

// The soundness tests ask about thousands of terms in one text: it is indexed once.
const indexedTokens = new Map<string, Set<string>>();

function missingTokens(text: string, term: string): string[] {
  let indexed = indexedTokens.get(text);
  if (!indexed) {
    const { tokens, complete } = indexTokens(text);
    expect(complete).toBe(true);
    indexed = new Set(tokens);
    if (indexedTokens.size > 100) indexedTokens.clear();
    indexedTokens.set(text, indexed);
  }
  // As search-index.ts asks: for the term as it is looked up.
  return queryTokens(foldTerm(term)).filter((token) => !indexed.has(token));
}

function expectFound(text: string, term: string): void {
  expect(occursIn(text, term)).toBe(true);
  expect(missingTokens(text, term), `${term} in ${text}`).toEqual([]);
}

describe('normalizeForSearch', () => {
  it('unifies full-width and half-width forms and case', () => {
    expect(normalizeForSearch('ＤＥＳＩＧＮ　２０２６')).toBe('design 2026');
    expect(normalizeForSearch('ｸﾞﾗﾌｨｯｸ')).toBe('グラフィック');
    expect(normalizeForSearch('Bauhaus')).toBe('bauhaus');
  });

  it('collapses and trims whitespace, including full-width spaces and newlines', () => {
    expect(normalizeForSearch('  現代\n\t建築　 の\u00a0潮流 ')).toBe('現代 建築 ノ 潮流');
  });

  it('folds hiragana into katakana and long vowel marks (src/lib/japanese-text.ts)', () => {
    expect(normalizeForSearch('でざいん')).toBe(normalizeForSearch('デザイン'));
    expect(normalizeForSearch('ﾃﾞｻﾞｲﾅｰの仕事')).toBe('デザイナーノ仕事');
    expect(normalizeForSearch('サーバ－、')).toBe('サーバー、');
  });
});

describe('indexTokens and queryTokens', () => {
  it('finds two-character kanji words inside running text', () => {
    expectFound('現代建築の潮流', '建築');
    expectFound('現代建築の潮流', '築の潮');
  });

  it('finds katakana words inside longer katakana words', () => {
    expectFound('グラフィックデザイナー', 'デザイン'.slice(0, 3));
    expectFound('グラフィックデザイナー', 'デザイナー');
    expectFound('グラフィックデザイナーの仕事', 'デザイ');
  });

  it('matches the katakana word デザイン inside グラフィックデザイン', () => {
    expectFound('グラフィックデザインの現在', 'デザイン');
  });

  it('matches full-width latin queries against half-width text and vice versa', () => {
    expectFound('Graphic design today', 'ＤＥＳＩＧＮ');
    expectFound('ＤＥＳＩＧＮ　ＴＯＤＡＹ', 'design today');
    expectFound('会期は２０２６年', '2026年');
  });

  it('matches hiragana queries against katakana text, whatever the long vowel marks', () => {
    expectFound('タイポグラフィの現在', 'たいぽぐらふぃ');
    expectFound('タイポグラフィの現在', 'たいぽぐらふぃー');
    expectFound('グラフィックデザイナーの仕事', 'ﾃﾞｻﾞｲﾅｰ');
    expectFound('Web サーバーの設定', 'サーバ');
    expectFound('Web サーバ、', 'さーばー');
  });

  it('matches half-width katakana queries against full-width text', () => {
    expectFound('グラフィックデザイン', 'ｸﾞﾗﾌｨｯｸ');
    expectFound('ｴｼｶﾙな消費', 'エシカル');
  });

  it('finds partial latin words of three or more letters', () => {
    expectFound('Bauhaus movement', 'auha');
    expect(queryTokens('des')).toEqual(['des']);
    expect(queryTokens('Design')).toEqual(['des', 'esi', 'ign', 'sig']);
  });

  it('returns no tokens for a short latin fragment that may be part of a longer word', () => {
    expect(queryTokens('ai')).toEqual([]);
    expect(queryTokens('3d')).toEqual([]);
    expect(queryTokens('a-b')).toEqual([]);
    expect(queryTokens('')).toEqual([]);
    expect(queryTokens(' 　 ')).toEqual([]);
    expect(queryTokens('、。！')).toEqual([]);
  });

  it('uses a short latin word when the term shows both of its ends', () => {
    expect(queryTokens('生成 AI 時代')).toEqual(['ai', '時代', '生成']);
    // 'ux' is closed by '/' and the space; 'ui' could be the end of a longer word.
    expect(queryTokens('UI/UX の')).toEqual(['ux', 'ノ']);
    expectFound('UI/UX の分野', 'UI/UX の');
    expect(queryTokens('ui/ux')).toEqual([]);
  });

  it('narrows: a query token is missing when the term does not occur', () => {
    expect(missingTokens('建物の築年数', '建築')).toEqual(['建築']);
    expect(missingTokens('デザイン', 'でさいん').length).toBeGreaterThan(0);
    expect(missingTokens('ビール', 'びる').length).toBeGreaterThan(0);
    expect(missingTokens('Bauhaus', 'house')).not.toEqual([]);
  });

  it('returns unique, sorted tokens', () => {
    const { tokens } = indexTokens('デザインとデザイン design design');
    expect(tokens).toEqual([...new Set(tokens)].sort());
    expect(tokens).toContain('デザ');
    expect(tokens).toContain('ン');
    expect(tokens).toContain('sig');
  });

  it(`keeps the first ${MAX_INDEX_TOKENS} tokens of a long text and says it is incomplete`, () => {
    const distinct = Array.from({ length: 3000 }, (_, i) => String.fromCodePoint(0x4e00 + i));
    const long = indexTokens(distinct.join(''));
    expect(long.complete).toBe(false);
    expect(long.tokens).toHaveLength(MAX_INDEX_TOKENS);
    expect(long.tokens).toContain(distinct[0]);
    expect(long.tokens).not.toContain(distinct[2999]);

    const sample = indexTokens(SAMPLE);
    expect(sample.complete).toBe(true);
    expect(indexTokens('建築'.repeat(10_000)).complete).toBe(true);
  });

  describe('soundness', () => {
    // Asserts the property for one pair and reports whether the premise held.
    function check(text: string, term: string): boolean {
      if (!occursIn(text, term)) return false;
      const missing = missingTokens(text, term);
      if (missing.length > 0) {
        throw new Error(
          `unsound for term ${JSON.stringify(term)}: missing ${JSON.stringify(missing)}`,
        );
      }
      return true;
    }

    it('holds for random substrings of Japanese article text', () => {
      const random = mulberry32(7);
      const chars = Array.from(SAMPLE);
      let held = 0;
      let narrowed = 0;
      for (let i = 0; i < 5000; i++) {
        const start = Math.floor(random() * chars.length);
        const length = 1 + Math.floor(random() * 12);
        const term = chars.slice(start, start + length).join('');
        if (check(SAMPLE, term)) held++;
        if (queryTokens(term).length > 0) narrowed++;
      }
      // Almost every raw substring still occurs after normalisation, and most narrow.
      expect(held).toBeGreaterThan(4500);
      expect(narrowed).toBeGreaterThan(4000);
    });

    it('holds for random substrings of the normalised text', () => {
      const random = mulberry32(8);
      const normalized = normalizeForSearch(SAMPLE);
      for (let i = 0; i < 3000; i++) {
        const start = Math.floor(random() * normalized.length);
        const term = normalized.slice(start, start + 1 + Math.floor(random() * 8));
        check(SAMPLE, term);
      }
    });

    it('holds for random text with tricky characters, cut at any UTF-16 position', () => {
      const random = mulberry32(9);
      const pieces = [
        'a',
        'b',
        'A',
        'ß',
        'İ',
        'é',
        'e\u0301',
        '1',
        '２',
        'Ｘ',
        ' ',
        '　',
        '\n',
        '-',
        '.',
        '・',
        'ー',
        'ｰ',
        'カ',
        'ｶﾞ',
        'が',
        'ぽ',
        'ﾎﾟ',
        '〜',
        '～',
        '－',
        'か\u3099',
        '建',
        '々',
        '㈱',
        '①',
        'ﬁ',
        '한',
        '𠮷',
        '𐌰',
        '🎨',
        '\uD800',
        '\uDC00',
      ];
      let held = 0;
      for (let i = 0; i < 3000; i++) {
        const text = Array.from(
          { length: 5 + Math.floor(random() * 30) },
          () => pieces[Math.floor(random() * pieces.length)],
        ).join('');
        // Callers may index text they already normalised; that must change nothing.
        expect(normalizeForSearch(normalizeForSearch(text))).toBe(normalizeForSearch(text));
        for (let j = 0; j < 5; j++) {
          const start = Math.floor(random() * text.length);
          const term = text.slice(start, start + 1 + Math.floor(random() * 8));
          if (check(text, term)) held++;
        }
      }
      expect(held).toBeGreaterThan(10_000);
    });
  });
});

describe('splitQuery', () => {
  it('splits on half-width and full-width whitespace and drops empty terms', () => {
    expect(splitQuery('  建築　デザイン\tBauhaus\n ')).toEqual(['建築', 'デザイン', 'Bauhaus']);
    expect(splitQuery('')).toEqual([]);
    expect(splitQuery(' 　 ')).toEqual([]);
  });

  it(`keeps at most ${MAX_QUERY_TERMS} distinct terms`, () => {
    const terms = Array.from({ length: 12 }, (_, i) => `t${i}`);
    expect(splitQuery(terms.join(' '))).toEqual(terms.slice(0, MAX_QUERY_TERMS));
    expect(splitQuery('建築 建築 デザイン')).toEqual(['建築', 'デザイン']);
  });
});

describe('htmlToText', () => {
  it('removes tags, keeping inline markup inside words', () => {
    expect(htmlToText('<p>現代<strong>建築</strong>の潮流</p><p>デザ<em>イン</em></p>')).toBe(
      '現代建築の潮流 デザイン',
    );
  });

  it('separates block elements and line breaks with spaces', () => {
    expect(
      htmlToText('<h2>見出し</h2><ul><li>一つ目</li><li>二つ目</li></ul>行1<br>行2<hr>終わり'),
    ).toBe('見出し 一つ目 二つ目 行1 行2 終わり');
    expect(htmlToText('<table><tr><td>A</td><td>B</td></tr></table>')).toBe('A B');
  });

  it('decodes entities exactly once', () => {
    expect(htmlToText('<p>A &amp; B &lt;b&gt; &quot;q&quot; &#x5efa;&#31689; &copy;</p>')).toBe(
      'A & B <b> "q" 建築 ©',
    );
    expect(htmlToText('&amp;lt;')).toBe('&lt;');
    expect(htmlToText('a&nbsp;b')).toBe('a b');
  });

  it('drops scripts, styles, comments, attributes and ruby readings', () => {
    expect(
      htmlToText(
        '<style>p{color:red}</style><script>alert("建築")</script><!-- メモ -->' +
          '<p title="属性"><img src="x.png" alt="代替">本文<a href="/建築">リンク</a></p>' +
          '<ruby>漢字<rp>(</rp><rt>かんじ</rt><rp>)</rp></ruby>',
      ),
    ).toBe('本文リンク 漢字');
  });

  it('handles plain text and broken markup', () => {
    expect(htmlToText('ただのテキスト')).toBe('ただのテキスト');
    expect(htmlToText('<p>閉じていない<b>太字')).toBe('閉じていない太字');
    expect(htmlToText('')).toBe('');
  });
});
