import { describe, expect, it } from 'vitest';
import type { EndpointDef } from '@/lib/cms/model';
import { type DiffPart, diffFields, htmlToPlainText } from './content-diff';

const def: EndpointDef = {
  endpoint: 'posts',
  label: '記事',
  kind: 'list',
  fields: [
    { id: 'title', label: 'タイトル', kind: 'text' },
    { id: 'description', label: '概要', kind: 'textArea' },
    { id: 'body', label: '本文', kind: 'richEditor' },
    { id: 'cover', label: 'カバー画像', kind: 'media' },
    { id: 'category', label: '特集', kind: 'relation', endpoint: 'categories' },
    { id: 'tags', label: 'タグ', kind: 'relationList', endpoint: 'tags' },
    { id: 'free', label: '無料公開', kind: 'boolean' },
    { id: 'order', label: '順番', kind: 'number' },
    { id: 'format', label: '形式', kind: 'select', options: ['article', 'report'] },
    { id: 'closing', label: '締切', kind: 'date' },
  ],
};

/** The parts of one field's diff (the body's unless told). */
function textParts(before: string, after: string, field = 'body'): DiffPart[] {
  const [diff] = diffFields(def, { [field]: before }, { [field]: after });
  return diff?.type === 'text' ? diff.parts : [];
}

describe('diffFields', () => {
  it('shows nothing for two equal copies, whatever the spelling of empty', () => {
    const a = { title: 'A', tags: [], category: null, cover: { url: '/u/a.png', width: 10 } };
    const b = { title: 'A', description: '', cover: { url: '/u/a.png', width: 20 } };
    expect(diffFields(def, a, b)).toEqual([]);
    expect(diffFields(def, null, {})).toEqual([]);
  });

  it('marks the characters added to a Japanese title, not the whole title', () => {
    expect(textParts('デザイン展レポート', 'デザイン展レポート【追記あり】', 'title')).toEqual([
      { op: 'same', text: 'デザイン展レポート' },
      { op: 'ins', text: '【追記あり】' },
    ]);
  });

  it('diffs plain text by characters across its lines', () => {
    const [diff] = diffFields(
      def,
      { description: '一行目\n二行目\n三行目' },
      { description: '一行目\n二行目を直した\n三行目\n四行目' },
    );
    expect(diff?.type === 'text' && diff.parts).toEqual([
      { op: 'same', text: '一行目\n二行目' },
      { op: 'ins', text: 'を直した' },
      { op: 'same', text: '\n三行目\n' },
      { op: 'ins', text: '四行目' },
    ]);
  });

  it('marks one changed kanji, and a rewritten phrase as one replacement', () => {
    const parts = textParts('<p>展示を見た。</p>', '<p>展示を観た。</p>');
    expect(parts).toEqual([
      { op: 'same', text: '展示を' },
      { op: 'del', text: '見' },
      { op: 'ins', text: '観' },
      { op: 'same', text: 'た。' },
    ]);
    // No stray one-character "same" pieces between the edits: it reads as a replacement.
    const rewritten = textParts(
      '<p>展示を見た。とても良かった。</p>',
      '<p>展示を見た。少し混んでいた。</p>',
    );
    expect(rewritten).toEqual([
      { op: 'same', text: '展示を見た。' },
      { op: 'del', text: 'とても良かっ' },
      { op: 'ins', text: '少し混んでい' },
      { op: 'same', text: 'た。' },
    ]);
  });

  it('shows a fixed link: same words, a different address', () => {
    const parts = textParts(
      '<p>詳しくは<a href="https://exmaple.com/">公式サイト</a>へ。</p>',
      '<p>詳しくは<a href="https://example.com/">公式サイト</a>へ。</p>',
    );
    expect(parts).toEqual([
      { op: 'same', text: '詳しくは' },
      {
        op: 'format',
        text: '公式サイト',
        before: ['リンク: https://exmaple.com/'],
        after: ['リンク: https://example.com/'],
      },
      { op: 'same', text: 'へ。' },
    ]);
  });

  it('shows marks and block kinds added or removed', () => {
    expect(textParts('<p>次回も行く。</p>', '<p>次回も<strong>行く</strong>。</p>')).toEqual([
      { op: 'same', text: '次回も' },
      { op: 'format', text: '行く', before: [], after: ['太字'] },
      { op: 'same', text: '。' },
    ]);
    expect(
      textParts('<p>A<em>B</em><code>c</code></p>', '<h2>A<s>B</s>c</h2>').filter(
        (p) => p.op === 'format',
      ),
    ).toEqual([
      { op: 'format', text: 'A', before: [], after: ['見出し2'] },
      { op: 'format', text: 'B', before: ['斜体'], after: ['見出し2', '取り消し線'] },
      { op: 'format', text: 'c', before: ['コード'], after: ['見出し2'] },
    ]);
  });

  it('names the marks of added text, and a replaced image by its address', () => {
    expect(
      textParts('<p>本文。</p>', '<p>本文。<a href="https://a.example/">続き</a></p>'),
    ).toEqual([
      { op: 'same', text: '本文。' },
      { op: 'ins', text: '続き', marks: ['リンク: https://a.example/'] },
    ]);
    expect(
      textParts('<p><img src="/u/a.png" alt="作品"></p>', '<p><img src="/u/b.png" alt="作品"></p>'),
    ).toEqual([
      {
        op: 'format',
        text: '［画像: 作品］',
        before: ['画像: /u/a.png'],
        after: ['画像: /u/b.png'],
      },
    ]);
  });

  it('never splits a character drawn from several code points', () => {
    expect(textParts('<p>家族👨‍👩‍👧で</p>', '<p>家族👨‍👩‍👦で</p>')).toEqual([
      { op: 'same', text: '家族' },
      { op: 'del', text: '👨‍👩‍👧' },
      { op: 'ins', text: '👨‍👩‍👦' },
      { op: 'same', text: 'で' },
    ]);
  });

  it('keeps paragraph breaks as new lines and markup-only equal text out of the diff', () => {
    expect(diffFields(def, { body: '<p>同じ</p>' }, { body: '<p>同じ</p>\n' })).toEqual([]);
    expect(textParts('<p>一。</p><p>二。</p>', '<p>一。</p><p>二。</p><p>三。</p>')).toEqual([
      { op: 'same', text: '一。\n二。\n' },
      { op: 'ins', text: '三。' },
    ]);
  });

  it('diffs a long article quickly', () => {
    const para = (i: number) => `<p>第${i}段落。デザインの展示を見て、考えたことを書く。</p>`;
    const before = Array.from({ length: 400 }, (_, i) => para(i)).join('');
    const after = before.replace(para(200), para(200).replace('考えた', '感じた'));
    const started = performance.now();
    const parts = textParts(before, after);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(parts.filter((p) => p.op !== 'same')).toEqual([
      { op: 'del', text: '考え' },
      { op: 'ins', text: '感じ' },
    ]);
  });

  it('reports a field added from nothing as all insertions', () => {
    const [diff] = diffFields(def, {}, { title: '新しい題' });
    expect(diff).toEqual({
      id: 'title',
      label: 'タイトル',
      type: 'text',
      parts: [{ op: 'ins', text: '新しい題' }],
    });
  });

  it('compares references by id and media by url and alt text, in the model order', () => {
    const diffs = diffFields(
      def,
      { category: 'c1', tags: ['a', 'b'], cover: { url: '/u/a.png', alt: '' } },
      { category: { id: 'c1' }, tags: ['b', 'a'], cover: { url: '/u/a.png', alt: '会場' } },
    );
    expect(diffs.map((d) => d.id)).toEqual(['cover', 'tags']);
    expect(diffs[0]).toMatchObject({
      type: 'value',
      before: '/u/a.png',
      after: '/u/a.png（代替テキスト: 会場）',
    });
    expect(diffs[1]).toMatchObject({ before: 'a、b', after: 'b、a' });
  });

  it('prints other kinds in Japanese, dates in Japan time', () => {
    const diffs = diffFields(
      def,
      { free: false, order: 1, format: ['article'], closing: '2026-11-30T15:00:00.000Z' },
      { free: true, order: 1200, format: [], closing: '2026-12-01T00:00:00+09:00' },
    );
    // The two dates are the same instant.
    expect(diffs.map((d) => (d.type === 'value' ? [d.id, d.before, d.after] : d.id))).toEqual([
      ['free', 'いいえ', 'はい'],
      ['order', '1', '1,200'],
      ['format', 'article', '（なし）'],
    ]);
  });
});

describe('htmlToPlainText', () => {
  it('keeps paragraphs, names images, embeds and the members divider, decodes entities', () => {
    const html =
      '<h2>見出し</h2><p>A &amp; B&nbsp;と&#x3042;</p><hr data-members-divider="" />' +
      '<figure><img src="/u/x.png" alt="作品 &quot;1&quot;" /><figcaption>写真</figcaption></figure>' +
      '<iframe src="https://www.youtube.com/embed/x"></iframe><ul><li>一</li><li>二</li></ul>';
    expect(htmlToPlainText(html).split('\n')).toEqual([
      '見出し',
      'A & B と\u3042',
      '［会員限定部分の区切り］',
      '［画像: 作品 "1"］',
      '写真',
      '［埋め込み: https://www.youtube.com/embed/x］',
      '一',
      '二',
    ]);
  });
});
