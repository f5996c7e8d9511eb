import { describe, expect, it } from 'vitest';
import { leadOf } from './lead';

describe('leadOf', () => {
  it('keeps what stands before the divider', () => {
    expect(leadOf('<p>一</p><p>二</p><p>三</p><hr><p>秘密</p>')).toBe(
      '<p>一</p><p>二</p><p>三</p>',
    );
  });
  it('keeps the first two blocks when there is no divider, never the rest', () => {
    const lead = leadOf('<h2>見出し</h2><p>導入</p><p>本文の続き</p>');
    expect(lead).toBe('<h2>見出し</h2><p>導入</p>');
    expect(lead).not.toContain('続き');
  });
  it('stops at about 300 characters of text', () => {
    const long = `<p>${'あ'.repeat(250)}</p>`;
    expect(leadOf(`${long}${long}<hr>`)).toBe(long);
  });
});
