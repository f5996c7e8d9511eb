import { describe, expect, it } from 'vitest';
import { htmlToText } from '@/lib/text/html-to-text';
import { MEMBERS_DIVIDER } from '@/lib/cms/members-divider';
import { sanitizeRichText } from '@/lib/cms/sanitize';
import { LEAD_MAX_CHARS, bodyCharacters, bodyLead, gatedLength, leadOf } from './lead';

const DIVIDER = MEMBERS_DIVIDER.html;
const SECRET = 'HIMITSU-MARKER';
const VOID = new Set(['br', 'hr', 'img']);

const length = (html: string) => Array.from(htmlToText(html)).length;

/** Every element opened is closed, in order; and the HTML is what the sanitiser would write. */
function expectWellFormed(html: string): void {
  const open: string[] = [];
  for (const [, slash, name] of html.matchAll(/<(\/?)([a-z0-9]+)\b[^>]*>/g)) {
    if (VOID.has(name!)) continue;
    if (slash) expect(open.pop(), html).toBe(name);
    else open.push(name!);
  }
  expect(open, html).toEqual([]);
  expect(sanitizeRichText(html)).toBe(html);
}

const paragraph = (chars: number, fill = 'あ') => `<p>${fill.repeat(chars)}</p>`;

const sentences = (count: number, fill = 'い') => `<p>${`${fill.repeat(7)}。`.repeat(count)}</p>`;

describe('leadOf with the members’ divider', () => {
  it('keeps what stands before the divider, as it is', () => {
    expect(leadOf(`<p>一</p><h2>二</h2><p>三</p>${DIVIDER}<p>${SECRET}</p>`)).toBe(
      '<p>一</p><h2>二</h2><p>三</p>',
    );
  });

  it('keeps everything above it whatever its length: figures, embeds, tables and quotes whole', () => {
    const above = [
      paragraph(LEAD_MAX_CHARS * 3),
      '<figure><img src="/uploads/a.jpg" alt="図版"><figcaption>図版の説明</figcaption></figure>',
      '<iframe src="https://www.youtube-nocookie.com/embed/abcdefghijk" title="YouTube"></iframe>',
      '<figure><a href="https://x.com/user/status/123">https://x.com/user/status/123</a></figure>',
      `<table><tbody>${'<tr><td>行</td><td>値</td></tr>'.repeat(40)}</tbody></table>`,
      `<blockquote>${paragraph(400, 'く')}</blockquote>`,
    ].join('');
    const lead = leadOf(`${above}${DIVIDER}<p>${SECRET}</p>`);
    expect(lead).toBe(sanitizeRichText(above));
    expect(lead).toContain('<img src="/uploads/a.jpg"');
    expect(lead).toContain('<figcaption>図版の説明</figcaption>');
    expect(lead).toContain('x.com/user/status/123');
    expect(lead).not.toContain('…');
    expect(length(lead)).toBeGreaterThan(LEAD_MAX_CHARS * 4);
  });

  it('never cuts a block: a divider inside one ends the lead before that block', () => {
    expect(
      leadOf(
        `<p>導入。</p><ul><li>一つ目</li><li>二つ目${DIVIDER}${SECRET}</li></ul><p>${SECRET}</p>`,
      ),
    ).toBe('<p>導入。</p>');
    expect(leadOf(`<p>導入。</p><table><tr><td>表${DIVIDER}${SECRET}</td></tr></table>`)).toBe(
      '<p>導入。</p>',
    );
    // Between the blocks of a wrapper (which the sanitiser drops), it is where it stands.
    expect(leadOf(`<div><p>一</p>${DIVIDER}<p>${SECRET}</p></div>`)).toBe('<p>一</p>');
  });

  it('gives nothing when the divider comes first', () => {
    expect(leadOf(`${DIVIDER}<p>${SECRET}</p>`)).toBe('');
  });

  it('is the divider only exactly: the attribute on <hr>', () => {
    for (const lookAlike of [
      '<p data-members-divider>見せかけ</p>',
      '<div data-members-divider></div>',
      '<span data-members-divider="">x</span>',
      '<hr data-members-divider-x>',
      '<hr data-members-only-divider>',
      '<hr class="members-divider">',
      '<hr data-divider="members">',
      '<hr>',
    ]) {
      const lead = leadOf(`<p>導入。</p>${lookAlike}${sentences(120)}`);
      // The lead goes on past it, to the cap.
      expect(lead, lookAlike).toContain('いいい');
      expect(length(lead), lookAlike).toBeLessThanOrEqual(LEAD_MAX_CHARS);
      expect(length(lead), lookAlike).toBeGreaterThan(LEAD_MAX_CHARS - 20);
      expect(lead, lookAlike).not.toContain('data-');
      expectWellFormed(lead);
    }
    // Any value, any letter case of the attribute, is still the divider on <hr>.
    for (const divider of ['<hr data-members-divider="no">', '<HR DATA-MEMBERS-DIVIDER>']) {
      expect(leadOf(`<p>導入。</p>${divider}<p>${SECRET}</p>`), divider).toBe('<p>導入。</p>');
    }
  });
});

describe('leadOf without a divider', () => {
  it('ends a body that is one long list between its items', () => {
    const items = Array.from({ length: 80 }, (_, i) => `<li>項目${i}：${'う'.repeat(20)}</li>`);
    const lead = leadOf(`<ul>${items.join('')}</ul>`);
    expect(length(lead)).toBeLessThanOrEqual(LEAD_MAX_CHARS);
    expect(length(lead)).toBeGreaterThan(LEAD_MAX_CHARS - 30);
    expect(lead).not.toContain('項目79');
    expect(lead).toMatch(/^<ul><li>項目0：/);
    expect(lead).toMatch(/う<\/li><\/ul>$/);
    expectWellFormed(lead);
  });

  it('ends a long paragraph after its last sentence in reach, never inside 「」', () => {
    const quoted = `「${'か'.repeat(10)}。${'き'.repeat(5)}」と書いた。`;
    const lead = leadOf(`<p>${quoted.repeat(40)}</p>`);
    expect(length(lead)).toBeLessThanOrEqual(LEAD_MAX_CHARS);
    expect(lead).toMatch(/」と書いた。<\/p>$/);
    expect(lead).not.toContain('…');
    expectWellFormed(lead);
  });

  it('cuts one 5,000-character paragraph without a sentence end to the cap', () => {
    const lead = leadOf(paragraph(5000));
    expect(length(lead)).toBeLessThanOrEqual(LEAD_MAX_CHARS);
    expect(lead).toBe(`<p>${'あ'.repeat(LEAD_MAX_CHARS - 1)}…</p>`);
  });

  it('never cuts a quote, table or code block: it is shown whole or not at all', () => {
    const rows = Array.from(
      { length: 60 },
      (_, i) => `<tr><td>${i}</td><td>${'え'.repeat(15)}。</td></tr>`,
    );
    for (const block of [
      `<table><tbody>${rows.join('')}</tbody></table>`,
      `<blockquote>${sentences(50, 'く')}</blockquote>`,
      `<pre>${'け'.repeat(800)}</pre>`,
    ]) {
      expect(leadOf(`<p>導入です。</p>${block}${sentences(50)}`), block.slice(0, 20)).toBe(
        '<p>導入です。</p>',
      );
      expect(leadOf(block), block.slice(0, 20)).toBe('');
    }
    const quote = '<blockquote><p>短い引用です。</p></blockquote>';
    expect(leadOf(`<p>導入です。</p>${quote}${sentences(50)}`)).toMatch(
      /^<p>導入です。<\/p><blockquote><p>短い引用です。<\/p><\/blockquote><p>い/,
    );
  });

  it('treats an early decorative <hr> as a rule, not the end of the lead', () => {
    const lead = leadOf(`<p>短い導入。</p><hr><p>${'おおおお。'.repeat(160)}</p>`);
    expect(lead).toMatch(/^<p>短い導入。<\/p><hr \/><p>おおお/);
    expect(length(lead)).toBe(LEAD_MAX_CHARS);
  });

  it('never shows a short members’ body whole: at most half of its text', () => {
    const lead = leadOf(
      `<p>導入の段落です。</p><p>二つ目の段落。</p><hr><p>${SECRET} 会員だけの本文。</p>`,
    );
    expect(lead).not.toContain(SECRET);
    expect(length(lead)).toBeLessThanOrEqual(Math.floor(39 / 2));
    expect(lead).toMatch(/^<p>導入の段落です。<\/p>/);
    expect(leadOf('<p>本文。</p>')).toBe('');
    expect(leadOf('')).toBe('');
  });
});

describe('what the lead is made of', () => {
  it('leaves out pictures, figures and players without a divider, and counts none of their text', () => {
    const lead = leadOf(
      [
        '<figure><img src="/uploads/a.jpg" alt="有料の図版"><figcaption>図版の説明</figcaption></figure>',
        '<p>本文<img src="/uploads/b.jpg" alt="x">の続き。</p>',
        '<iframe src="https://www.youtube.com/embed/abc"></iframe>',
        '<p>二段落目。</p>',
        sentences(60),
      ].join(''),
    );
    expect(lead).toMatch(/^<p>本文の続き。<\/p><p>二段落目。<\/p><p>いいい/);
    expect(lead).not.toMatch(/img|figure|iframe|図版/);
  });

  it('keeps nested and unclosed markup well-formed, and sanitises what it is given', () => {
    const bodies = [
      `<p>A &amp; B &lt;tag&gt; <b>太字 <i>入れ子</b> の後</p><p>閉じない<a href="/x" onclick="y()">リンク ${'か'.repeat(600)}`,
      `<ul><li>一<ul><li>二<ol><li>${'き'.repeat(700)}`,
      `<blockquote><p>${'く'.repeat(200)}<em>強調${'け'.repeat(400)}</em></p></blockquote>`,
      `<p>前<script>alert("${SECRET}")</script><style>p{}</style>後${'こ'.repeat(700)}</p>`,
      `<div><span class="x">${'さ'.repeat(700)}</span></div>`,
      `<table><tr><td>${'し'.repeat(700)}`,
      `<p>閉じない<a href="/x" onclick="y()">リンク。${'か'.repeat(600)}`,
    ];
    for (const body of bodies) {
      const lead = leadOf(body);
      expectWellFormed(lead);
      expect(length(lead), body.slice(0, 30)).toBeLessThanOrEqual(LEAD_MAX_CHARS);
      expect(lead).not.toMatch(/onclick|script|style|class=|alert/);
    }
    expect(leadOf(bodies[0]!)).toBe('<p>A &amp; B &lt;tag&gt; <b>太字 <i>入れ子</i></b> の後</p>');
    expect(leadOf(bodies[6]!)).toBe('<p>閉じない<a href="/x">リンク。</a></p>');
  });

  it('stays well-formed wherever the cut falls', () => {
    const body = `<h2>見出し</h2><p>一<strong>二<em>三</em>四</strong>五。</p><ul><li>六</li><li>七<a href="/y">八。</a>九</li></ul><p>${'す'.repeat(10)}</p>`;
    const total = length(body);
    // A short body shows at most half; a long one, the cap. Vary both with the text's length.
    for (let extra = 0; extra < 30; extra++) {
      const lead = leadOf(body + paragraph(extra, 'せ'));
      expectWellFormed(lead);
      expect(length(lead)).toBeLessThanOrEqual(Math.floor((total + extra) / 2));
    }
  });
});

describe('gatedLength: what the paywall counts', () => {
  it('counts the text past the divider, without white space', () => {
    const html = `<p>導入です。</p>${DIVIDER}<p>会員 だけの\n本文。</p>`;
    expect(gatedLength(html, leadOf(html))).toBe('会員だけの本文。'.length);
  });

  it('does not count the lead’s closing ellipsis as the author’s text', () => {
    const html = `<p>${'あ'.repeat(1000)}</p>`;
    const lead = leadOf(html);
    expect(lead.endsWith('…</p>')).toBe(true);
    expect(gatedLength(html, lead)).toBe(1000 - (LEAD_MAX_CHARS - 1));
  });

  it('counts the text above the divider as shown, a figure’s caption in neither', () => {
    const html = `<figure><img src="/a.jpg"><figcaption>説明</figcaption></figure><p>一</p>${DIVIDER}<p>二三</p>`;
    expect(gatedLength(html, leadOf(html))).toBe(2);
  });

  it('leaves out pictures, scripts and ruby readings', () => {
    const html = `<p>一</p>${DIVIDER}<figure><img src="/a.jpg"><figcaption>説明</figcaption></figure><p><ruby>漢字<rt>かんじ</rt></ruby></p><script>x()</script>`;
    expect(gatedLength(html, leadOf(html))).toBe(2);
  });
});

describe('bodyLead and bodyCharacters: once per version of an item', () => {
  it('measures a frozen version once, the next version anew, and a mutable item every time', () => {
    const first = Object.freeze({ body: `<p>公開の文。</p>${DIVIDER}<p>${SECRET}</p>` });
    const cut = bodyLead(first);
    expect(cut).toEqual({ lead: '<p>公開の文。</p>', gatedChars: SECRET.length });
    expect(bodyLead(first)).toBe(cut);
    expect(bodyCharacters(first)).toBe(5 + SECRET.length);
    // An edit is a new object: the divider moved up shows at once.
    const edited = Object.freeze({ body: `${DIVIDER}<p>公開の文。</p><p>${SECRET}</p>` });
    expect(bodyLead(edited)).toEqual({ lead: '', gatedChars: 5 + SECRET.length });
    const mutable = { body: '<p>一。</p>' };
    expect(bodyCharacters(mutable)).toBe(2);
    mutable.body = '<p>一二三。</p>';
    expect(bodyCharacters(mutable)).toBe(4);
  });
});
