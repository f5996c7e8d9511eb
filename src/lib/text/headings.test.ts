import { describe, expect, it } from 'vitest';
import { headingSlug, outlineHeadings, tableOfContents } from './headings';

const ids = (html: string) => outlineHeadings(html).headings.map((h) => h.id);

describe('headingSlug', () => {
  it('keeps Japanese as it is, joins the rest with one hyphen', () => {
    expect(headingSlug('漆の器を選ぶ', 1)).toBe('漆の器を選ぶ');
    expect(headingSlug('「手に取る」こと、そして　重さ。', 1)).toBe('手に取る-こと-そして-重さ');
    expect(headingSlug('ＤＥＳＩＧＮ　２０２６ の話', 1)).toBe('design-2026-の話');
    expect(headingSlug('カード・ゲーム', 1)).toBe('カード-ゲーム');
  });

  it('names a heading without letters by its place, and cuts a long one', () => {
    expect(headingSlug('——', 4)).toBe('section-4');
    expect(Array.from(headingSlug('あ'.repeat(80), 1))).toHaveLength(48);
  });
});

describe('outlineHeadings', () => {
  it('gives each h2 and h3 an id and lists them in order', () => {
    const { html, headings } = outlineHeadings(
      '<p>前書き</p><h2>はじめに</h2><p>本文</p><h3>道具の話</h3><h4>細部</h4><h2>おわりに</h2>',
    );
    expect(headings).toEqual([
      { id: 'はじめに', level: 2, text: 'はじめに' },
      { id: '道具の話', level: 3, text: '道具の話' },
      { id: 'おわりに', level: 2, text: 'おわりに' },
    ]);
    expect(html).toContain('<h2 id="はじめに">');
    expect(html).toMatch(/<h4>細<wbr>部|<h4>細部<\/h4>/);
    expect(html.startsWith('<p>前書き</p>')).toBe(true);
  });

  it('makes repeated headings unique and never takes an id the page uses', () => {
    expect(ids('<h2>まとめ</h2><h2>まとめ</h2><h3>まとめ</h3><h2>main</h2>')).toEqual([
      'まとめ',
      'まとめ-2',
      'まとめ-3',
      'main-2',
    ]);
  });

  it('is stable: a lead (the start of the body) gets the ids the body has', () => {
    const body = '<h2>序</h2><p>a</p><h2>序</h2><p>b</p><hr data-members-divider=""><h2>序</h2>';
    const lead = '<h2>序</h2><p>a</p><h2>序</h2><p>b</p>';
    expect(ids(body).slice(0, 2)).toEqual(ids(lead));
    expect(ids(body)).toEqual(ids(body));
  });

  it('breaks a heading only between BudouX phrases, keeping inline markup and entities', () => {
    const { html, headings } = outlineHeadings(
      '<h2>美しさに<strong>目を留める</strong> &amp; 選ぶ</h2>',
    );
    expect(headings[0]!.text).toBe('美しさに目を留める & 選ぶ');
    const inside = html.replace(/^<h2 id="[^"]*">|<\/h2>$/g, '');
    // Never inside a phrase: not 「美し|さ」.
    expect(inside).not.toMatch(/美<wbr>し|美し<wbr>さ/);
    expect(inside).toContain('<wbr>');
    expect(inside.replace(/<wbr>/g, '')).toBe('美しさに<strong>目を留める</strong> &amp; 選ぶ');
  });

  it('escapes an id that holds markup characters, and copies the rest byte for byte', () => {
    const rest = '<p class="x">&lt;b&gt; &amp; 続き</p><figure><img src="/a.png" alt=""></figure>';
    const { html } = outlineHeadings(`<h3>A&quot;B&lt;C</h3>${rest}`);
    expect(html).toMatch(/^<h3 id="a-b-c">A&quot;B&lt;C|^<h3 id="a-b-c">A"B&lt;C/);
    expect(html.endsWith(rest)).toBe(true);
  });
});

describe('tableOfContents', () => {
  const h = (level: 2 | 3, id: string) => ({ level, id, text: id });

  it('nests each h3 under the h2 before it', () => {
    expect(tableOfContents([h(3, 'a'), h(2, 'b'), h(3, 'c'), h(3, 'd'), h(2, 'e')])).toEqual([
      { ...h(3, 'a'), children: [] },
      { ...h(2, 'b'), children: [h(3, 'c'), h(3, 'd')] },
      { ...h(2, 'e'), children: [] },
    ]);
  });

  it('is empty below three headings', () => {
    expect(tableOfContents([h(2, 'a'), h(3, 'b')])).toEqual([]);
    expect(tableOfContents([])).toEqual([]);
  });
});
