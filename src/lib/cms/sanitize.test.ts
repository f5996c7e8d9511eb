// @vitest-environment jsdom
// jsdom parses the output the way a browser would, so the checks below look at what would
// actually be built from the sanitised HTML rather than at its spelling.
import { MEMBERS_DIVIDER } from './members-divider';
import { sanitizeRichText } from './sanitize';

const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  p: [],
  br: [],
  h2: [],
  h3: [],
  h4: [],
  strong: [],
  em: [],
  b: [],
  i: [],
  u: [],
  s: [],
  a: ['href', 'target', 'rel'],
  ul: [],
  ol: [],
  li: [],
  blockquote: [],
  figure: [],
  figcaption: [],
  img: ['src', 'alt', 'width', 'height', 'loading'],
  hr: [MEMBERS_DIVIDER.attribute],
  code: [],
  pre: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['colspan', 'rowspan'],
  td: ['colspan', 'rowspan'],
  iframe: ['src', 'width', 'height', 'title', 'allowfullscreen', 'loading'],
};

const EMBED = /^https:\/\/(www\.youtube\.com\/embed|player\.vimeo\.com\/video)\/[^/]/;

function parse(html: string): Element[] {
  const template = document.createElement('template');
  template.innerHTML = html;
  return [...template.content.querySelectorAll('*')];
}

/** Throws a descriptive error when the HTML could run script or load something unexpected. */
function assertInert(html: string): void {
  for (const element of parse(html)) {
    const tag = element.localName;
    const allowed = ALLOWED_ATTRIBUTES[tag];
    if (!allowed) throw new Error(`disallowed <${tag}> in ${html}`);
    for (const { name, value } of [...element.attributes]) {
      if (!allowed.includes(name)) throw new Error(`disallowed ${tag}[${name}] in ${html}`);
      if (name === 'href' || name === 'src') {
        const url = new URL(value, 'https://site.example/articles/1');
        const schemes = tag === 'a' ? ['http:', 'https:', 'mailto:'] : ['http:', 'https:'];
        if (!schemes.includes(url.protocol)) throw new Error(`unsafe URL ${value} in ${html}`);
        if (/^\s*[/\\]{2}/.test(value)) throw new Error(`protocol-relative ${value} in ${html}`);
        if (tag === 'iframe' && !EMBED.test(value)) throw new Error(`bad embed ${value}`);
      }
    }
    if (tag === 'iframe' && !element.hasAttribute('src')) throw new Error('iframe without src');
    if (tag === 'a' && element.getAttribute('target') === '_blank') {
      const rel = (element.getAttribute('rel') ?? '').split(' ');
      if (!rel.includes('noopener') || !rel.includes('noreferrer')) {
        throw new Error(`target=_blank without noopener noreferrer in ${html}`);
      }
    }
  }
}

const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/xss.js></SCRIPT>',
  '<scr<script>ipt>alert(1)</script>',
  '<<script>alert(1)//<</script>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="x" ONERROR="alert(1)">',
  '<img src="x` `<script>alert(1)</script>"` `>',
  '<img """><script>alert(1)</script>">',
  '<img src=javascript:alert(1)>',
  '<IMG SRC=&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A&#x61&#x6C&#x65&#x72&#x74&#x28&#x27&#x58&#x53&#x53&#x27&#x29>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img src="x" srcset="javascript:alert(1) 1x">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="  javascript:alert(1)">x</a>',
  '<a href="\u0001javascript:alert(1)">x</a>',
  '<a href="&#14;javascript:alert(1)">x</a>',
  '<a href="&#x20;javascript:alert(1)">x</a>',
  '<a href="jav\tascript:alert(1)">x</a>',
  '<a href="jav&#x09;ascript:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="java&Tab;script:alert(1)">x</a>',
  '<a href="javascript&colon;alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">x</a>',
  '<a href="&#x6A;&#x41;&#x56;&#x61;&#x53;&#x43;&#x72;&#x49;&#x70;&#x54;&#x3A;alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<a href="DATA:text/html,<script>alert(1)</script>">x</a>',
  '<a href="//evil.example/">x</a>',
  '<a href="\\\\evil.example/">x</a>',
  '<a href="javascript:alert(1)" target="_blank">x</a>',
  '<a href="https://example.com/" onclick="alert(1)" onmouseover="alert(1)">x</a>',
  '<a href="https://example.com/" style="position:fixed;inset:0">x</a>',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>',
  '<svg><animate onbegin=alert(1) attributeName=x dur=1s>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '<xmp><img src=x onerror=alert(1)></xmp>',
  '<textarea><img src=x onerror=alert(1)></textarea>',
  '<title><img src=x onerror=alert(1)></title>',
  '<template><img src=x onerror=alert(1)></template>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe src="data:text/html,<script>alert(1)</script>"></iframe>',
  '<iframe src="https://evil.example/embed/x"></iframe>',
  '<iframe src="https://www.youtube.com/watch?v=abc"></iframe>',
  '<iframe src="https://www.youtube.com/embed/"></iframe>',
  '<iframe src="https://www.youtube.com.evil.example/embed/abc"></iframe>',
  '<iframe src="https://evil.example@www.youtube.com/embed/abc"></iframe>',
  '<iframe src="http://www.youtube.com/embed/abc"></iframe>',
  '<iframe src="//www.youtube.com/embed/abc"></iframe>',
  '<iframe src="/embed/abc"></iframe>',
  '<iframe src="https://www.youtube.com/embed/../redirect?q=https://evil.example"></iframe>',
  '<iframe src="https://www.youtube.com/embed/abc" onload="alert(1)" srcdoc="<script>alert(1)</script>"></iframe>',
  '<iframe src="https://www.youtube.com/embed/abc"><a title="</iframe><img src=x onerror=alert(1)>">x</a></iframe>',
  '<iframe src="javascript:alert(1)">',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<p style="width: expression(alert(1))">x</p>',
  '<style>@import "https://evil.example/x.css"; body{background:url("javascript:alert(1)")}</style>',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="javascript:/">',
  '<body onload=alert(1)>',
  '<input autofocus onfocus=alert(1)>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror=alert(1)></video>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button></form>',
  '<table background="javascript:alert(1)"><tr><td background="javascript:alert(1)">x</td></tr></table>',
  '<blockquote cite="javascript:alert(1)">x</blockquote>',
  '<p><span class="x" id="y" data-x="z" onclick="alert(1)">x</span></p>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<img src=x onerror=alert(1)>]]>',
  '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
];

const ARTICLE = [
  '<h2>バウハウスから現代へ</h2>',
  '<p>1919年に開校した<strong>Bauhaus</strong>は、<em>工芸</em>と<b>工業</b>を結びつけた。',
  '<i>Form follows function</i> という言葉は<u>よく</u>引用されるが、<s>誤解</s>も多い。<br />',
  '詳しくは<a href="https://example.com/bauhaus" target="_blank" rel="noopener noreferrer">特設ページ</a>、',
  '<a href="/articles/modernism">関連記事</a>、<a href="#note-1">注1</a>、',
  '<a href="mailto:editor@example.com">編集部</a>へ。</p>',
  '<h3>主な作品</h3>',
  '<ul><li>ヴァイマル校舎</li><li>デッサウ校舎</li></ul>',
  '<ol><li>設計</li><li>施工</li></ol>',
  '<blockquote><p>デザインは問いを立てる行為です。</p></blockquote>',
  '<figure><img src="https://images.example.com/bauhaus.jpg" alt="デッサウ校舎" width="1200" height="800" loading="lazy" />',
  '<figcaption>デッサウ校舎（1926年）</figcaption></figure>',
  '<figure><img src="/uploads/poster.png" alt="" /></figure>',
  '<hr />',
  MEMBERS_DIVIDER.html,
  '<h4>コード例</h4>',
  '<pre><code>const grid = 8;\nconst gutter = grid * 3;</code></pre>',
  '<p>インラインの<code>grid</code>も使える。</p>',
  '<table><thead><tr><th>年</th><th colspan="2">出来事</th></tr></thead>',
  '<tbody><tr><td>1919</td><td rowspan="2">開校</td><td>ヴァイマル</td></tr></tbody></table>',
  '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ" width="560" height="315" title="YouTube video player" allowfullscreen></iframe>',
  '<iframe src="https://player.vimeo.com/video/123456789?h=abcdef" width="640" height="360" allowfullscreen loading="lazy"></iframe>',
  '<p>A &amp; B &lt;tag&gt; "引用"</p>',
].join('');

describe('sanitizeRichText', () => {
  it('keeps normal article markup intact', () => {
    expect(sanitizeRichText(ARTICLE)).toBe(ARTICLE);
    assertInert(ARTICLE);
  });

  it.each(XSS_PAYLOADS)('leaves nothing executable from %s', (payload) => {
    const output = sanitizeRichText(payload);
    assertInert(output);
    expect(output).not.toMatch(/<\s*(script|style|svg|math|object|embed|form|meta|base|link)/i);
    expect(output).not.toMatch(/\son[a-z]+\s*=/i);
    expect(output).not.toMatch(/(javascript|vbscript|data)\s*:/i);
    expect(output).not.toMatch(/srcdoc|style=|expression\(/i);
    // Stable under a second pass: nothing in the output re-parses into something new.
    expect(sanitizeRichText(output)).toBe(output);
  });

  it('stores a player without its fallback (raw text to htmlparser2 12, as to browsers)', () => {
    const player = '<iframe src="https://www.youtube.com/embed/dQw4w9WgXcQ"></iframe>';
    const stored = sanitizeRichText(
      player.replace('></', '>お使いのブラウザは &lt;iframe&gt; に<b>対応</b>していません</'),
    );
    expect(stored).toBe(player);
    expect(sanitizeRichText(stored)).toBe(stored);
  });

  it('removes a payload wrapped around article text but keeps the text', () => {
    expect(sanitizeRichText('<p onclick="alert(1)">本文<script>alert(1)</script>です</p>')).toBe(
      '<p>本文です</p>',
    );
  });

  it('adds rel="noopener noreferrer" to every target=_blank link', () => {
    expect(sanitizeRichText('<a href="https://example.com" target="_blank">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(
      sanitizeRichText('<a href="https://example.com" target="_BLANK" rel="nofollow opener">x</a>'),
    ).toBe(
      '<a href="https://example.com" target="_blank" rel="nofollow noopener noreferrer">x</a>',
    );
  });

  it('drops other targets and unknown rel tokens', () => {
    expect(sanitizeRichText('<a href="/x" target="_top" rel="opener me">x</a>')).toBe(
      '<a href="/x">x</a>',
    );
  });

  it.each([
    [
      'keeps a link text when its URL is refused',
      '<a href="javascript:alert(1)">リンク</a>',
      '<a>リンク</a>',
    ],
    [
      'drops an image whose source is refused',
      '<p>a<img src="javascript:alert(1)" alt="x" />b</p>',
      '<p>ab</p>',
    ],
    [
      'drops an embed whose source is refused',
      '<p>a</p><iframe src="https://evil.example/"></iframe>',
      '<p>a</p>',
    ],
    [
      'canonicalises embed URLs to what the browser will load',
      '<iframe src="https://WWW.YOUTUBE.COM/embed/abc?start=10"></iframe>',
      '<iframe src="https://www.youtube.com/embed/abc?start=10"></iframe>',
    ],
    [
      'removes classes, ids, styles and data attributes',
      '<p class="lead" id="intro" style="color:red" data-x="1">本文</p>',
      '<p>本文</p>',
    ],
    [
      'keeps the text of tags outside the allow list',
      '<h1>大見出し</h1><div><span>本文</span></div><h5>小</h5>',
      '大見出し本文小',
    ],
    [
      'drops unsafe attribute values but keeps the element (an image)',
      '<img src="/a.png" width="100%" height="50" loading="auto" alt="a" />',
      '<img src="/a.png" height="50" alt="a" />',
    ],
    [
      'drops unsafe attribute values but keeps the element (a table cell)',
      '<table><tr><td colspan="0" rowspan="x">1</td></tr></table>',
      '<table><tr><td>1</td></tr></table>',
    ],
  ])('%s', (_case, html, clean) => {
    expect(sanitizeRichText(html)).toBe(clean);
  });

  it('keeps the members’ divider exactly, in one spelling, and nothing that looks like it', () => {
    expect(MEMBERS_DIVIDER.html).toBe('<hr data-members-divider />');
    for (const divider of [
      '<hr data-members-divider>',
      '<hr data-members-divider="">',
      '<hr data-members-divider="yes" class="x" data-x="1">',
      '<HR DATA-MEMBERS-DIVIDER>',
      '<hr data-members-divider/>',
    ]) {
      expect(sanitizeRichText(divider), divider).toBe(MEMBERS_DIVIDER.html);
    }
    for (const lookAlike of [
      '<hr data-members-divider-x>',
      '<hr data-members-only-divider>',
      '<hr data-divider="members">',
      '<hr class="members-divider">',
      '<hr id="data-members-divider">',
    ]) {
      expect(sanitizeRichText(lookAlike), lookAlike).toBe('<hr />');
    }
    expect(
      sanitizeRichText(
        '<p data-members-divider>a</p><div data-members-divider></div><img src="/a.png" data-members-divider />',
      ),
    ).toBe('<p>a</p><img src="/a.png" />');
  });

  it('escapes stray angle brackets and handles empty input', () => {
    expect(sanitizeRichText('1 < 2 > 0 & 3')).toBe('1 &lt; 2 &gt; 0 &amp; 3');
    // Quotes need no escaping in text, so sanitize-html writes them plainly.
    expect(sanitizeRichText('<p>&quot;引用&quot;</p>')).toBe('<p>"引用"</p>');
    expect(sanitizeRichText('')).toBe('');
  });
});

describe('sanitizeRichText and embeds (embeds.ts)', () => {
  it('keeps the stored X and Instagram post markup exactly', () => {
    const posts =
      '<figure><a href="https://x.com/designer/status/1234567890">https://x.com/designer/status/1234567890</a></figure>' +
      '<figure><a href="https://www.instagram.com/p/Cabc123_-/">https://www.instagram.com/p/Cabc123_-/</a></figure>';
    expect(sanitizeRichText(posts)).toBe(posts);
  });

  it('keeps nothing but the player attributes it knows on an embed', () => {
    expect(
      sanitizeRichText(
        '<iframe src="https://www.youtube.com/embed/abc" allow="camera; microphone" sandbox="allow-scripts allow-same-origin" style="position:fixed" name="x" referrerpolicy="unsafe-url" srcdoc="<b>x</b>" onload="alert(1)" title="t"></iframe>',
      ),
    ).toBe('<iframe src="https://www.youtube.com/embed/abc" title="t"></iframe>');
  });

  it.each([
    'https://www.youtube.com/%65mbed/abc',
    'https://www.youtube.com/embed/%2e%2e/redirect?q=https://evil.example',
    'https://www.youtube.com/embed/%2E%2E/%2E%2E/evil',
    'https://www.youtube.com\\@evil.example/embed/abc',
    'https://www.youtube.com%2eevil.example/embed/abc',
    'https://www.youtube.com./embed/abc',
    'https://www.youtube.com:443@evil.example/embed/abc',
    'https://user:pass@player.vimeo.com/video/1',
    'https://xn--www-youtube-com.example/embed/abc',
    ' javascript:alert(1)//www.youtube.com/embed/abc',
  ])('drops a player whose URL only looks right: %s', (src) => {
    expect(sanitizeRichText(`<p>a</p><iframe src="${src}"></iframe>`)).toBe('<p>a</p>');
  });

  it('writes a player URL as the browser will load it', () => {
    // The URL parser drops a trailing NUL and lowercases the host; the parsed form is kept.
    expect(
      sanitizeRichText('<iframe src="https://WWW.youtube.com/embed/abc\u0000"></iframe>'),
    ).toBe('<iframe src="https://www.youtube.com/embed/abc"></iframe>');
  });
});
