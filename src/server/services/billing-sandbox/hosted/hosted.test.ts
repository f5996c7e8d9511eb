import { describe, expect, it } from 'vitest';
import { readCardForm } from './card-form';
import { Html, html } from './html';
import { CONTRAST_PAIRS } from './styles';

/** The pages' building blocks: escaping, the card form's checks, the palette's contrast. */

describe('html templates', () => {
  it('escapes every interpolated value unless it is Html already', () => {
    const hostile = `"><script>alert('x')</script>&`;
    expect(html`<p title="${hostile}">${hostile}</p>`.text).toBe(
      '<p title="&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;">&quot;&gt;&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;</p>',
    );
    const inner = html`<b>${'<i>'}</b>`;
    expect(html`<p>${inner}${[html`<hr />`, 'a&b']}${null}${false}${undefined}${3}</p>`.text).toBe(
      '<p><b>&lt;i&gt;</b><hr />a&amp;b3</p>',
    );
    expect(new Html('<x>').toString()).toBe('<x>');
  });
});

describe('the card form', () => {
  const now = new Date(Date.UTC(2026, 5, 15));
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);

  it('reads a card typed with spaces, full-width digits and a four-digit year', () => {
    const read = readCardForm(
      form({
        number: '４２４２ ４２４２ ４２４２ ４２４２',
        exp: '06 / 2026',
        cvc: '１２３',
        name: ' TARO ',
      }),
      now,
    );
    expect(read).toEqual({
      ok: true,
      card: { number: '4242424242424242', expMonth: 6, expYear: 2026, cvc: '123', name: 'TARO' },
      values: { exp: '06/2026', name: 'TARO' },
    });
  });

  it('says in Japanese what is missing or wrong, per field', () => {
    expect(readCardForm(form({}), now)).toMatchObject({
      ok: false,
      errors: {
        fields: {
          number: 'カード番号を入力してください。',
          exp: '有効期限を入力してください。',
          cvc: 'セキュリティコードを入力してください。',
          name: 'カード名義を入力してください。',
        },
      },
    });
    const wrong = readCardForm(
      form({ number: '4242-abc', exp: '0530', cvc: '12345', name: 'A' }),
      now,
    );
    expect(wrong).toMatchObject({
      ok: false,
      errors: {
        fields: {
          number: 'カード番号が正しくありません。',
          cvc: 'セキュリティコードは3桁または4桁の数字で入力してください。',
        },
      },
    });
    expect(readCardForm(form({ exp: '5/26' }), now)).toMatchObject({
      errors: { fields: { exp: '有効期限が切れています。' } },
    });
    expect(readCardForm(form({ exp: '2026-06' }), now)).toMatchObject({
      errors: { fields: { exp: '有効期限は「月/年」の形で入力してください（例：04/30）。' } },
    });
    expect(readCardForm(form({ exp: '00/30' }), now)).toMatchObject({
      errors: { fields: { exp: '有効期限の月が正しくありません。' } },
    });
  });
});

/** WCAG 2.x relative luminance and contrast ratio of two #rrggbb colours. */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((start) => {
      const channel = parseInt(hex.slice(start, start + 2), 16) / 255;
      return channel <= 0.04045 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('the palette', () => {
  it('meets WCAG AA contrast for every pair of text and background it uses', () => {
    for (const pair of CONTRAST_PAIRS) {
      expect(contrast(pair.text, pair.background), JSON.stringify(pair)).toBeGreaterThanOrEqual(
        pair.minimum,
      );
    }
  });
});
