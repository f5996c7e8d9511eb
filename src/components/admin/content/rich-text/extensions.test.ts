// @vitest-environment jsdom
import { Editor } from '@tiptap/react';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { sanitizeRichText } from '@/lib/cms/sanitize';
import { editorHtml, richTextExtensions } from './extensions';
import { MEMBERS_DIVIDER_ATTRIBUTE } from './members-divider-node';

function editorWith(content: string): Editor {
  return new Editor({
    element: document.createElement('div'),
    extensions: richTextExtensions(),
    content,
  });
}

function roundTrip(content: string): string {
  const editor = editorWith(content);
  const html = editorHtml(editor);
  editor.destroy();
  return html;
}

/** The markup a browser builds from the HTML: spelling differences (`<hr />`, `&quot;`) aside. */
function parsed(html: string): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  return template.innerHTML;
}

const EVERY_FEATURE = [
  '<h2>バウハウスから現代へ</h2>',
  '<p>1919年に開校した<strong>Bauhaus</strong>は、<em>工芸</em>と<u>工業</u>を<s>分けた</s>結びつけた。<br>改行</p>',
  '<p><a href="https://example.com/bauhaus">特設ページ</a>、<a href="/posts/abc">関連記事</a>、',
  '<a href="mailto:editor@example.com">編集部</a>、',
  '<a href="https://example.com/" target="_blank" rel="noopener noreferrer">別タブ</a>、',
  '<a href="https://pr.example.com/" rel="sponsored">PR</a>、<code>grid</code></p>',
  '<h3>主な作品</h3><h4>校舎</h4>',
  '<ul><li><p>ヴァイマル校舎</p><ul><li><p>入れ子</p></li></ul></li><li><p>デッサウ校舎</p></li></ul>',
  '<ol><li><p>設計</p></li><li><p>施工</p></li></ol>',
  '<blockquote><p>デザインは問いを立てる行為です。</p></blockquote>',
  '<pre><code>const grid = 8;\nconst gutter = grid * 3 &lt; 40;</code></pre>',
  '<hr>',
  '<figure><img src="https://images.example.com/bauhaus.jpg" alt="デッサウ校舎" width="1200" height="800"><figcaption>デッサウ校舎（1926年）</figcaption></figure>',
  '<figure><img src="/uploads/images/poster.png" alt="ポスター"></figure>',
  `<hr ${MEMBERS_DIVIDER_ATTRIBUTE}="">`,
  '<table><tbody><tr><th><p>年</p></th><th colspan="2"><p>出来事</p></th></tr>',
  '<tr><td><p>1919</p></td><td><p>開校</p></td><td><p></p></td></tr></tbody></table>',
  '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" width="560" height="315" title="YouTube video player" allowfullscreen=""></iframe>',
  '<iframe src="https://player.vimeo.com/video/123456789?h=abcdef" title="Vimeoの動画" allowfullscreen=""></iframe>',
  '<figure><a href="https://x.com/designer/status/1234567890">https://x.com/designer/status/1234567890</a></figure>',
  '<figure><a href="https://www.instagram.com/p/Cabc123_-/">https://www.instagram.com/p/Cabc123_-/</a></figure>',
  '<p>A &amp; B &lt;tag&gt; "引用"</p>',
].join('');

describe('the editor schema', () => {
  it('writes every feature exactly as it reads it', () => {
    expect(roundTrip(EVERY_FEATURE)).toBe(EVERY_FEATURE);
  });

  it('writes only what the sanitiser keeps unchanged', () => {
    const html = roundTrip(EVERY_FEATURE);
    expect(parsed(sanitizeRichText(html))).toBe(parsed(html));
  });

  it('spells the members’ divider as the access policy reads it', () => {
    expect(parsed(roundTrip(MEMBERS_DIVIDER.html))).toBe(parsed(MEMBERS_DIVIDER.html));
    expect(MEMBERS_DIVIDER.attribute).toBe(MEMBERS_DIVIDER_ATTRIBUTE);
  });

  it('keeps only the first members’ divider', () => {
    const editor = editorWith('<p>リード</p><hr data-members-divider><p>本文</p>');
    editor.commands.setTextSelection(editor.state.doc.content.size - 1);
    expect(editor.commands.insertMembersDivider()).toBe(false);
    editor.commands.insertContent('<hr data-members-divider><p>貼り付け</p>');
    expect(editorHtml(editor).match(/data-members-divider/g)).toHaveLength(1);
    editor.destroy();
  });

  it('keeps the members’ divider between top-level blocks only', () => {
    const editor = editorWith('<blockquote><p>引用</p></blockquote><ul><li><p>項目</p></li></ul>');
    editor.commands.setTextSelection(3); // inside the quote
    editor.commands.insertMembersDivider();
    editor.commands.setTextSelection(editor.state.doc.content.size - 3); // inside the list
    editor.commands.insertMembersDivider();
    const html = editorHtml(editor);
    expect(html.match(/data-members-divider/g)).toHaveLength(1);
    expect(html).not.toMatch(/<(blockquote|li)>(?:(?!<\/\1>).)*data-members-divider/);
    editor.destroy();
    expect(roundTrip('<ul><li><p>a</p><hr data-members-divider><p>b</p></li></ul>')).not.toMatch(
      /<li>(?:(?!<\/li>).)*data-members-divider/,
    );
  });

  it('normalises what older bodies and the content API may hold', () => {
    // Bare images become figures; classes, styles, widths, list numbers and link titles go.
    expect(
      roundTrip(
        '<p class="lead" style="color:red">本文<img src="https://a.example/x.png" alt="x"></p>' +
          '<ol start="3" type="a"><li>三</li></ol>' +
          '<p><a href="https://a.example/" title="t" class="c">link</a>' +
          '<a href="https://b.example/" target="_BLANK" rel="opener Sponsored">b</a></p>' +
          '<pre><code class="language-js">x</code></pre>' +
          '<table style="width:10px"><colgroup><col style="width:10px"></colgroup><tr><td style="text-align:right" colwidth="100">1</td></tr></table>',
      ),
    ).toBe(
      '<p>本文</p><figure><img src="https://a.example/x.png" alt="x"></figure>' +
        '<ol><li><p>三</p></li></ol>' +
        '<p><a href="https://a.example/">link</a>' +
        '<a href="https://b.example/" target="_blank" rel="sponsored noopener noreferrer">b</a></p>' +
        '<pre><code>x</code></pre>' +
        '<table><tbody><tr><td><p>1</p></td></tr></tbody></table>',
    );
  });

  it('drops links and images it may not write', () => {
    expect(
      roundTrip(
        '<p><a href="javascript:alert(1)">a</a><a href="//evil.example/">b</a><a href="data:text/html,x">c</a></p>' +
          '<img src="javascript:alert(1)"><img src="data:image/png;base64,AAAA">',
      ),
    ).toBe('<p>abc</p>');
  });

  it('keeps look-alike embeds as what they are, never as an embed', () => {
    expect(
      roundTrip(
        '<iframe src="https://www.youtube.com.evil.example/embed/abc"></iframe>' +
          '<figure><a href="https://x.com.evil.example/a/status/1">x</a></figure>' +
          '<figure><a href="https://x.com/a/status/1?ref=1">x</a></figure>' +
          '<figure><a href="https://x.com/a/status/1">x</a> and more</figure>',
      ),
    ).toBe(
      '<p><a href="https://x.com.evil.example/a/status/1">x</a></p>' +
        '<p><a href="https://x.com/a/status/1?ref=1">x</a></p>' +
        '<p><a href="https://x.com/a/status/1">x</a> and more</p>',
    );
  });

  it('is empty when the document is', () => {
    expect(roundTrip('')).toBe('');
    expect(roundTrip('<p></p><p></p>')).toBe('');
    expect(roundTrip('<p>a</p><p></p>')).toBe('<p>a</p>');
  });
});

describe('inserting the members’ divider', () => {
  it('leaves the cursor after it, so what is typed next is the members’ part', () => {
    const editor = editorWith('<p>誰でも読めるリード</p>');
    editor.commands.focus('end');
    expect(editor.commands.insertMembersDivider()).toBe(true);
    editor.commands.insertContent('会員だけの段落');
    expect(editorHtml(editor)).toBe(
      `<p>誰でも読めるリード</p><hr ${MEMBERS_DIVIDER_ATTRIBUTE}=""><p>会員だけの段落</p>`,
    );
    editor.destroy();
  });

  it('in the middle of the text, splits it there', () => {
    const editor = editorWith('<p>前半</p><p>後半</p>');
    editor.commands.focus('end');
    editor.commands.setTextSelection(4); // end of the first paragraph
    editor.commands.insertMembersDivider();
    editor.commands.insertContent('追加');
    expect(editorHtml(editor)).toBe(
      `<p>前半</p><hr ${MEMBERS_DIVIDER_ATTRIBUTE}=""><p>追加後半</p>`,
    );
    editor.destroy();
  });
});
