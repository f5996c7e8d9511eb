import { describe, expect, it } from 'vitest';
import { encodeFlash } from '@/lib/http/flash';
import { CLIPPED_FIELDS, listingFlashValues } from './listings-http';

/** What a plain post's one-time cookie carries back of the listing form. */

const cookieLength = (values: Record<string, unknown>, fieldErrors: Record<string, string>) => {
  const message = '入力内容を確認してください。';
  const reserved = Buffer.byteLength(JSON.stringify({ message, fieldErrors }));
  const kept = listingFlashValues(values, reserved) as Record<string, string>;
  return {
    kept,
    length: `axis_flash=${encodeFlash({ message, fieldErrors, values: kept })}`.length,
  };
};

describe('the listing form’s one-time cookie', () => {
  it('carries a short form back whole, and only the form’s fields', () => {
    const typed = {
      title: 'デザイナー',
      hours: '10時〜',
      salaryMin: '400万',
      intent: 'save',
      revision: '3',
    };
    const { kept } = cookieLength(typed, {
      salaryMin: '給与は円単位の半角数字で入力してください。',
    });
    expect(kept).toEqual({ title: 'デザイナー', hours: '10時〜', salaryMin: '400万' });
  });

  it('stays under 4 KB with every field at its longest, the short fields kept first', () => {
    const typed = {
      title: '題'.repeat(100),
      description: '概'.repeat(300),
      details: '本文の段落。\r\n\r\n'.repeat(1000),
      location: '所'.repeat(200),
      hours: '時'.repeat(200),
      applyUrl: `https://example.jp/${'a'.repeat(480)}`,
      applyEmail: 'recruit@example.jp',
      closingDate: '2027-03-31',
    };
    const errors = Object.fromEntries(
      Object.keys(typed).map((k) => [k, `${k} の入力内容を確認してください。文字数が多すぎます。`]),
    );
    const { kept, length } = cookieLength(typed, errors);
    expect(length).toBeLessThan(4096);
    expect(kept.title).toBe(typed.title);
    expect(kept.applyUrl).toBe(typed.applyUrl);
    expect(kept[CLIPPED_FIELDS]?.split(',')).toContain('details');
  });

  it('keeps the start of a long text, with line breaks as the textarea shows them', () => {
    const { kept, length } = cookieLength(
      { title: 't', details: '一段落目。\r\n\r\n二段落目。'.repeat(400) },
      {},
    );
    expect(length).toBeLessThan(4096);
    expect(kept.details).toMatch(/^一段落目。\n\n二段落目。/);
    expect(kept.details!.length).toBeGreaterThan(600);
    expect(kept[CLIPPED_FIELDS]).toBe('details');
  });
});
