import { describe, expect, it } from 'vitest';
import { escapeHtml } from './escape-html';
import { htmlToText, walkHtml } from './html-to-text';

/** The attributes of the one element `html` holds, as an HTML parser reads them. */
function attributesOf(html: string): Record<string, string>[] {
  const found: Record<string, string>[] = [];
  walkHtml(html, { open: (_name, attribs) => void found.push({ ...attribs }) });
  return found;
}

describe('escapeHtml', () => {
  const hostile = [
    `"><script>alert(1)</script>`,
    `' onmouseover='alert(1)`,
    `" onerror="alert(1)`,
    '&amp; is already an entity; &lt;b&gt;',
    '</textarea><img src=x>',
    '普通の日本語「引用」と ‘quotes’',
  ];

  it('leaves no character that could open a tag, end an attribute or start an entity', () => {
    for (const text of hostile)
      expect(escapeHtml(text), text).not.toMatch(/[<>"']|&(?![a-z0-9#]+;)/);
  });

  it('reads back as the same text, in text and in an attribute of either quote', () => {
    for (const text of hostile) {
      expect(htmlToText(`<p>${escapeHtml(text)}</p>`, { edge: () => '' })).toBe(text);
      // One element, one attribute: the value did not break out into markup of its own.
      expect(attributesOf(`<a title="${escapeHtml(text)}">x</a>`)).toEqual([{ title: text }]);
      expect(attributesOf(`<a title='${escapeHtml(text)}'>x</a>`)).toEqual([{ title: text }]);
    }
  });

  it('changes nothing else', () => {
    const plain = 'A 記事の本文 — 2026/11/29 (100%) #tag ?q=1;x';
    expect(escapeHtml(plain)).toBe(plain);
  });
});
