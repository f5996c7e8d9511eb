import { describe, expect, it } from 'vitest';
import { TIP_AMOUNT_MESSAGE, readTipQuery, tipAmountSchema, tipConfirmPath } from './tip';

describe('a tip’s amount and message, as the block’s GET form sends them', () => {
  it('takes whole yen from ¥100 to ¥10,000, as typed on a Japanese keyboard', () => {
    for (const [text, amount] of [
      ['100', 100],
      ['10000', 10_000],
      ['１，０００', 1_000],
      [' 2,500 ', 2_500],
    ] as const) {
      expect(tipAmountSchema.parse(text)).toBe(amount);
    }
    for (const text of ['99', '10001', '100.0', '-100', '1e3', '0x64', '+500', '', 'abc']) {
      expect(tipAmountSchema.safeParse(text).error?.issues[0]?.message, text).toBe(
        TIP_AMOUNT_MESSAGE,
      );
    }
  });

  it('lets a typed amount win over the preset, and says why a choice is refused', () => {
    expect(readTipQuery({ amount: '500', other: '1234', message: ' ありがとう\r\n ' })).toEqual({
      ok: true,
      amount: 1234,
      message: 'ありがとう',
    });
    expect(readTipQuery({ amount: '500', other: '' })).toEqual({
      ok: true,
      amount: 500,
      message: null,
    });
    expect(readTipQuery({ amount: '500', other: '50000' })).toMatchObject({
      ok: false,
      error: TIP_AMOUNT_MESSAGE,
      amount: '50000',
    });
    expect(readTipQuery({ amount: '500', message: 'あ'.repeat(501) })).toMatchObject({
      ok: false,
      error: 'メッセージは500文字以内で入力してください。',
    });
  });

  it('names the confirmation screen with the choice', () => {
    expect(tipConfirmPath('post-1')).toBe('/purchase/tip/post-1');
    expect(tipConfirmPath('post-1', { amount: 500, message: 'a b' })).toBe(
      '/purchase/tip/post-1?amount=500&message=a+b',
    );
  });
});
