// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { cdata, escapeXml, stripInvalidXmlChars } from './xml';

const parse = (xml: string) => new DOMParser().parseFromString(xml, 'application/xml');
const wellFormed = (xml: string) => parse(xml).getElementsByTagName('parsererror').length === 0;

describe('XML text', () => {
  it('escapes the five special characters for content and attributes', () => {
    expect(escapeXml(`a & b < c > d "e" 'f'`)).toBe(
      'a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;',
    );
    const doc = parse(`<x a="${escapeXml(`"<&>'`)}">${escapeXml('</x><y>&amp;')}</x>`);
    expect(doc.documentElement.getAttribute('a')).toBe(`"<&>'`);
    expect(doc.documentElement.textContent).toBe('</x><y>&amp;');
  });

  it('drops characters XML 1.0 cannot carry, keeps tabs, newlines and astral characters', () => {
    expect(stripInvalidXmlChars('a\u0000b\u0008c\u000Bd\u001Fe\uFFFEf\uFFFF')).toBe('abcdef');
    expect(stripInvalidXmlChars('x\ty\nz\r𩸽🎨')).toBe('x\ty\nz\r𩸽🎨');
    expect(stripInvalidXmlChars('lone \uD800 high, lone \uDC00 low')).toBe('lone  high, lone  low');
    expect(wellFormed('<x>bell\u0007</x>')).toBe(false); // the parser does check
    expect(wellFormed(`<x>${escapeXml('bell\u0007')}</x>`)).toBe(true);
  });

  it('keeps "]]>" inside CDATA by splitting the section, and the text reads back the same', () => {
    const text = 'a]]>b <p>&amp;</p> ]]]]> end';
    const section = cdata(text);
    expect(section.startsWith('<![CDATA[')).toBe(true);
    expect(section.endsWith(']]>')).toBe(true);
    const doc = parse(`<x>${section}</x>`);
    expect(wellFormed(`<x><![CDATA[${text}]]></x>`)).toBe(false);
    expect(wellFormed(`<x>${section}</x>`)).toBe(true);
    expect(doc.documentElement.textContent).toBe(text);
  });
});
