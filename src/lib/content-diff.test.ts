import { describe, expect, it } from 'vitest';
import type { EndpointDef } from '@/lib/cms/model';
import { diffFields, htmlToPlainText, sentences } from './content-diff';

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

describe('diffFields', () => {
  it('shows nothing for two equal copies, whatever the spelling of empty', () => {
    const a = { title: 'A', tags: [], category: null, cover: { url: '/u/a.png', width: 10 } };
    const b = { title: 'A', description: '', cover: { url: '/u/a.png', width: 20 } };
    expect(diffFields(def, a, b)).toEqual([]);
    expect(diffFields(def, null, {})).toEqual([]);
  });

  it('diffs plain text line by line, deletions before their replacements', () => {
    const [diff] = diffFields(
      def,
      { description: '一行目\n二行目\n三行目' },
      { description: '一行目\n二行目を直した\n三行目\n四行目' },
    );
    expect(diff).toEqual({
      id: 'description',
      label: '概要',
      type: 'text',
      parts: [
        { op: 'same', text: '一行目' },
        { op: 'del', text: '二行目', breakBefore: true },
        { op: 'ins', text: '二行目を直した', breakBefore: true },
        { op: 'same', text: '三行目', breakBefore: true },
        { op: 'ins', text: '四行目', breakBefore: true },
      ],
    });
  });

  it('diffs rich text sentence by sentence on its plain text', () => {
    const [diff] = diffFields(
      def,
      { body: '<p>展示を見た。とても良かった。</p><p>次回も行く。</p>' },
      { body: '<p>展示を見た。少し混んでいた。</p><p>次回も<strong>行く</strong>。</p>' },
    );
    expect(diff?.type).toBe('text');
    expect(diff?.type === 'text' && diff.parts).toEqual([
      { op: 'same', text: '展示を見た。' },
      { op: 'del', text: 'とても良かった。' },
      { op: 'ins', text: '少し混んでいた。' },
      // Markup alone is no change: the sentence reads the same.
      { op: 'same', text: '次回も行く。', breakBefore: true },
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

describe('sentences', () => {
  it('cuts after Japanese and latin sentence ends, closing quotes kept', () => {
    expect(sentences('「行く。」と言った。本当？ Yes! 終わり')).toEqual([
      '「行く。」',
      'と言った。',
      '本当？',
      'Yes!',
      '終わり',
    ]);
  });
});
