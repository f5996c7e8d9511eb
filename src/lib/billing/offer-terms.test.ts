import { describe, expect, it } from 'vitest';
import { type OfferView, offerTerms } from './offer-terms';

const monthly = { amount: 1100, interval: 'month' as const, intervalCount: 1, productId: 'prod_a' };
const yearly = { amount: 11000, interval: 'year' as const, intervalCount: 1, productId: 'prod_a' };
const base: OfferView = {
  code: 'WELCOME',
  name: null,
  percentOff: null,
  amountOff: null,
  duration: 'once',
  durationInMonths: null,
  firstTimeOnly: false,
  products: null,
};

describe('offerTerms', () => {
  it('states the first charge, the regular price and what follows', () => {
    expect(offerTerms({ ...base, percentOff: 50 }, monthly)).toEqual({
      discounted: 550,
      charges: 1,
      lead: '初月',
      label: '初月 ¥550（通常 ¥1,100）',
      name: '初月半額',
      after: '割引は初月のお支払いに適用され、その後は通常の ¥1,100（税込）／月 です。',
    });
    expect(offerTerms({ ...base, percentOff: 50 }, yearly)?.label).toBe(
      '初年度 ¥5,500（通常 ¥11,000）',
    );
  });

  it('counts the charges of a repeating offer and says when one lasts', () => {
    const three = { ...base, amountOff: 300, duration: 'repeating' as const, durationInMonths: 3 };
    expect(offerTerms(three, monthly)).toMatchObject({
      discounted: 800,
      charges: 3,
      label: '最初の3回（3か月） ¥800（通常 ¥1,100）',
    });
    // Three months of a yearly plan: its first charge only.
    expect(offerTerms(three, yearly)).toMatchObject({ charges: 1, lead: '初年度' });
    const forever = offerTerms({ ...base, percentOff: 10, duration: 'forever' }, monthly);
    expect(forever).toMatchObject({ discounted: 990, charges: null, lead: '毎回' });
    expect(forever?.after).toContain('解約されるまで毎回');
  });

  it('applies only to the offer’s products, and never below zero', () => {
    expect(offerTerms({ ...base, percentOff: 10, products: ['prod_b'] }, monthly)).toBeNull();
    expect(offerTerms({ ...base, amountOff: 5000 }, monthly)?.discounted).toBe(0);
  });
});

describe('offerTerms: the name readers see', () => {
  it('says the discount and its period on the plan it is shown on', () => {
    const half = { ...base, name: '初月半額', percentOff: 50 };
    expect(offerTerms(half, monthly)?.name).toBe('初月半額');
    expect(offerTerms(half, yearly)?.name).toBe('初年度半額');
    expect(offerTerms({ ...base, percentOff: 20 }, monthly)?.name).toBe('初月20%オフ');
    expect(offerTerms({ ...base, amountOff: 300 }, yearly)?.name).toBe('初年度 ¥300引き');
    expect(offerTerms({ ...base, percentOff: 100 }, monthly)?.name).toBe('初月無料');
    const three = { ...base, percentOff: 50, duration: 'repeating' as const, durationInMonths: 3 };
    expect(offerTerms(three, monthly)?.name).toBe('最初の3回（3か月）半額');
    expect(offerTerms({ ...base, percentOff: 10, duration: 'forever' }, yearly)?.name).toBe(
      '毎回10%オフ',
    );
  });
});
