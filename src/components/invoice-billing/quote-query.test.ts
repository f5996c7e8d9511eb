import { describe, expect, it } from 'vitest';
import { quoteQuery } from './quote-query';

describe('quoteQuery', () => {
  it('needs a price id, and asks for seats and 宛名 first', () => {
    expect(quoteQuery({})).toEqual({ kind: 'no-price' });
    expect(quoteQuery({ price: 'price_1; drop' })).toEqual({ kind: 'no-price' });
    expect(quoteQuery({ price: 'price_abc' })).toMatchObject({ kind: 'form', error: null });
  });

  it('quotes valid seats for a printable name, and says what is wrong otherwise', () => {
    expect(quoteQuery({ price: 'price_abc', seats: '5', addressee: ' 株式会社サンプル ' })).toEqual(
      {
        kind: 'quote',
        priceId: 'price_abc',
        seats: 5,
        addressee: '株式会社サンプル',
      },
    );
    expect(
      quoteQuery({ price: 'price_abc', seats: '0', addressee: '株式会社サンプル' }),
    ).toMatchObject({
      kind: 'form',
      error: '席数は 1 以上で入力してください。',
    });
    expect(quoteQuery({ price: 'price_abc', seats: '2.5', addressee: 'A' })).toMatchObject({
      error: '席数は整数で入力してください。',
    });
    expect(quoteQuery({ price: 'price_abc', seats: '3', addressee: 'A\u202eB' })).toMatchObject({
      error: '宛名に使えない文字が含まれています。',
    });
  });
});
