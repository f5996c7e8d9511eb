// @vitest-environment jsdom
import { Editor } from '@tiptap/react';
import { sanitizeRichText } from '@/lib/cms/sanitize';
import { editorHtml, richTextExtensions } from './extensions';
import { GOOGLE_DOCS_CLIPBOARD } from './fixtures/google-docs-clipboard';
import { WORD_CLIPBOARD } from './fixtures/word-clipboard';
import { cleanPastedHtml } from './paste-cleanup';

/** What the editor keeps of a paste: the cleaner, then the schema's parse rules. */
function pasted(html: string): string {
  const editor = new Editor({
    element: document.createElement('div'),
    extensions: richTextExtensions(),
    content: cleanPastedHtml(html),
  });
  const result = editorHtml(editor);
  editor.destroy();
  return result;
}

describe('cleanPastedHtml', () => {
  it.each([
    [
      'cleans Word’s clipboard: lists become lists, Office markup and local files go',
      WORD_CLIPBOARD,
      [
        '<h2>バウハウスの教育</h2>',
        '<p>1919年に開校した<b>Bauhaus</b>は、<i>工芸</i>と<u>工業</u>を 結びつけた。</p>',
        '<ul><li>ヴァイマル校舎<ul><li>1919年開校</li></ul></li><li>デッサウ校舎</li></ul>',
        '<ol><li>設計</li><li>施工</li></ol>',
        '<p>詳しくは<a href="https://example.com/bauhaus">特設ページ</a>へ。メモ</p>',
      ],
    ],
    [
      'cleans Google Docs’ clipboard: styled spans become bold, italic, underline, strike',
      GOOGLE_DOCS_CLIPBOARD,
      [
        '<h2>主な作品</h2>',
        '<p>デザインは<strong>問い</strong><em>を立てる</em><u>行為</u>です。<a href="https://example.com/">出典</a></p>',
        '<ul><li><p>ヴァイマル校舎</p></li><li><p><s>デッサウ校舎</s></p></li></ul>',
        '<div><table><tbody><tr><td><p><strong>年</strong></p></td><td><p>1919</p></td></tr></tbody></table></div>',
      ],
    ],
  ])('%s', (_title, clipboard, expected) => {
    expect(cleanPastedHtml(clipboard)).toBe(expected.join(''));
  });

  it('keeps only semantic attributes from a web page, and safe links and images', () => {
    expect(
      cleanPastedHtml(
        '<div class="article" style="color:red"><h1 id="t">題</h1><p data-x="1" onclick="x()">本文<a href="javascript:alert(1)">危険</a>' +
          '<a href="https://example.com/" target="_blank" class="ext">外部</a></p>' +
          '<img src="data:image/png;base64,AAAA" alt="d"><img src="https://img.example/a.png" alt="写真" width="640" height="480" srcset="x 2x" style="width:100%">' +
          '<h6>小見出し</h6><p>&nbsp;</p><script>alert(1)</script><style>p{}</style></div>',
      ),
    ).toBe(
      '<div><h2>題</h2><p>本文危険<a href="https://example.com/" target="_blank">外部</a></p>' +
        '<img src="https://img.example/a.png" alt="写真" width="640" height="480"><h4>小見出し</h4></div>',
    );
  });

  it('keeps ProseMirror’s own slice marker, so a copy within the editor pastes as it was', () => {
    expect(
      cleanPastedHtml('<ul data-pm-slice="3 3 []"><li><p>項目<strong>太字</strong></p></li></ul>'),
    ).toBe('<ul data-pm-slice="3 3 []"><li><p>項目<strong>太字</strong></p></li></ul>');
  });

  it('gives the editor clean semantic HTML the sanitiser leaves as it is', () => {
    for (const [name, clipboard] of Object.entries({ WORD_CLIPBOARD, GOOGLE_DOCS_CLIPBOARD })) {
      const html = pasted(clipboard);
      expect(html, name).not.toMatch(/class=|style=|mso|docs-internal|<span|<o:p|<div|<b>|<i>/);
      const template = document.createElement('template');
      template.innerHTML = sanitizeRichText(html);
      const again = document.createElement('template');
      again.innerHTML = html;
      expect(template.innerHTML, name).toBe(again.innerHTML);
    }
    expect(pasted(GOOGLE_DOCS_CLIPBOARD)).toBe(
      '<h2>主な作品</h2><p>デザインは<strong>問い</strong><em>を立てる</em><u>行為</u>です。<a href="https://example.com/">出典</a></p>' +
        '<ul><li><p>ヴァイマル校舎</p></li><li><p><s>デッサウ校舎</s></p></li></ul>' +
        '<table><tbody><tr><td><p><strong>年</strong></p></td><td><p>1919</p></td></tr></tbody></table>',
    );
  });
});
