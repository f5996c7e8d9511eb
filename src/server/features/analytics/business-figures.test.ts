import { describe, expect, it } from 'vitest';
import {
  type PlanRecord,
  computeFigures,
  japanMonth,
  lastMonths,
  monthlyEquivalent,
  monthlyRevenueAt,
} from './business-figures';
import type { SubscriptionDiscount } from '@/server/platform/db/schema';

/** An instant in Japan. */
const jst = (value: string) => new Date(`${value}+09:00`);
const NOW = jst('2027-03-15T12:00:00').getTime();

const plan = (fields: Partial<PlanRecord> & Pick<PlanRecord, 'id'>): PlanRecord => ({
  userId: fields.id.replace('sub', 'user'),
  status: 'active',
  amount: 1100,
  interval: 'month',
  intervalCount: 1,
  discounts: [],
  createdAt: jst('2027-01-10T00:00:00'),
  endedAt: null,
  firstPaidAt: jst('2027-01-10T00:00:00'),
  ...fields,
});

describe('months in Japan', () => {
  it('start at 15:00 UTC the day before', () => {
    expect(japanMonth(new Date('2027-02-28T14:59:59Z'))).toBe('2027-02');
    expect(japanMonth(new Date('2027-02-28T15:00:00Z'))).toBe('2027-03');
  });

  it('lists the last 12 months, oldest first, across the year', () => {
    const months = lastMonths(NOW);
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({
      month: '2026-04',
      start: Date.parse('2026-03-31T15:00:00Z'),
      end: Date.parse('2026-04-30T15:00:00Z'),
    });
    expect(months.at(-1)?.month).toBe('2027-03');
  });
});

describe('monthlyEquivalent', () => {
  it('is the price over its months', () => {
    expect(monthlyEquivalent({ amount: 1100, interval: 'month', intervalCount: 1 })).toBe(1100);
    expect(monthlyEquivalent({ amount: 11000, interval: 'year', intervalCount: 1 })).toBeCloseTo(
      916.667,
      2,
    );
    expect(monthlyEquivalent({ amount: 3300, interval: 'month', intervalCount: 3 })).toBe(1100);
    expect(monthlyEquivalent({ amount: null, interval: 'month', intervalCount: 1 })).toBe(0);
  });
});

describe('monthlyRevenueAt', () => {
  const since = jst('2027-01-10T00:00:00').toISOString();
  const discount = (fields: Partial<SubscriptionDiscount>): SubscriptionDiscount => ({
    coupon: 'co_test',
    percentOff: null,
    amountOff: null,
    duration: 'forever',
    durationInMonths: null,
    start: since,
    end: null,
    ...fields,
  });
  const monthly = (...discounts: SubscriptionDiscount[]) => ({
    amount: 1100,
    interval: 'month',
    intervalCount: 1,
    discounts,
  });

  it('takes off a forever discount, percent (to the yen) or yen', () => {
    expect(monthlyRevenueAt(monthly(discount({ percentOff: 15 })), NOW)).toBe(935);
    expect(monthlyRevenueAt(monthly(discount({ percentOff: 33.33 })), NOW)).toBe(733);
    expect(monthlyRevenueAt(monthly(discount({ amountOff: 300 })), NOW)).toBe(800);
    expect(monthlyRevenueAt(monthly(discount({ amountOff: 5000 })), NOW)).toBe(0);
    const yearly = { ...monthly(discount({ amountOff: 1100 })), amount: 11000, interval: 'year' };
    expect(monthlyRevenueAt(yearly, NOW)).toBeCloseTo(9900 / 12, 6);
  });

  it('takes off a repeating discount until its end, and a once discount never', () => {
    const repeating = discount({
      duration: 'repeating',
      durationInMonths: 3,
      percentOff: 50,
      end: jst('2027-04-10T00:00:00').toISOString(),
    });
    expect(monthlyRevenueAt(monthly(repeating), NOW)).toBe(550);
    expect(monthlyRevenueAt(monthly(repeating), jst('2027-04-10T00:00:00').getTime())).toBe(1100);
    expect(monthlyRevenueAt(monthly(discount({ duration: 'once', percentOff: 50 })), NOW)).toBe(
      1100,
    );
  });

  it('applies each discount to what the one before left', () => {
    const both = monthly(discount({ percentOff: 50 }), discount({ amountOff: 100 }));
    expect(monthlyRevenueAt(both, NOW)).toBe(450);
  });

  it('is what MRR adds up', () => {
    const plans = [
      plan({ id: 'sub_a' }),
      plan({ id: 'sub_b', discounts: [discount({ amountOff: 200 })] }),
    ];
    expect(computeFigures(plans, [], NOW).headline).toMatchObject({ mrr: 2000, payingMembers: 2 });
  });
});

describe('computeFigures', () => {
  it('counts paying plans, trials, MRR, new and churned per month and conversion', () => {
    const plans = [
      // Paying monthly since January.
      plan({ id: 'sub_a' }),
      // Paying yearly since February.
      plan({
        id: 'sub_b',
        amount: 11000,
        interval: 'year',
        createdAt: jst('2027-02-01T09:00:00'),
        firstPaidAt: jst('2027-02-01T09:00:00'),
      }),
      // A trial: not paying yet.
      plan({ id: 'sub_c', status: 'trialing', firstPaidAt: null }),
      // Paid in January, ended in March: churned in March.
      plan({ id: 'sub_d', status: 'canceled', endedAt: jst('2027-03-01T00:00:00') }),
      // A trial that ended without a payment: never paying, never churned.
      plan({
        id: 'sub_e',
        status: 'canceled',
        firstPaidAt: null,
        endedAt: jst('2027-02-01T00:00:00'),
      }),
      // Still past_due after a paid first period: paying until the provider ends it.
      plan({ id: 'sub_f', status: 'past_due', userId: 'user_a' }),
    ];
    const signUps = [
      { userId: 'user_a', createdAt: jst('2027-01-05T00:00:00') },
      { userId: 'user_c', createdAt: jst('2027-01-06T00:00:00') },
      { userId: 'user_x', createdAt: jst('2027-03-01T00:00:00') },
      // More than 12 months ago: outside the window.
      { userId: 'user_b', createdAt: jst('2026-03-31T23:59:59') },
    ];
    const { headline, months } = computeFigures(plans, signUps, NOW);
    expect(headline).toEqual({
      // 1100 (a) + 916.67 (b) + 1100 (f)
      mrr: 3117,
      payingMembers: 3,
      trials: 1,
      // user_a paid (twice: counted once); user_c is trialing; user_x has not paid.
      conversion: { signUps: 3, converted: 1, rate: 1 / 3 },
      oneTime: { posts: 0, tips: 0, gifts: 0 },
    });
    const byMonth = Object.fromEntries(months.map((m) => [m.month, m]));
    expect(byMonth['2027-01']).toEqual({
      month: '2027-01',
      newPaying: 3,
      churned: 0,
      payingAtEnd: 3,
      signUps: 2,
      converted: 1,
      oneTime: { posts: 0, tips: 0, gifts: 0 },
    });
    expect(byMonth['2027-02']).toMatchObject({ newPaying: 1, churned: 0, payingAtEnd: 4 });
    expect(byMonth['2027-03']).toMatchObject({
      newPaying: 0,
      churned: 1,
      payingAtEnd: 3,
      signUps: 1,
      converted: 0,
    });
    expect(byMonth['2026-12']).toMatchObject({ newPaying: 0, churned: 0, payingAtEnd: 0 });
    // Each month's paying count is the last one's, plus new, less churned.
    for (let i = 1; i < months.length; i++) {
      const [before, month] = [months[i - 1]!, months[i]!];
      expect(month.payingAtEnd).toBe(before.payingAtEnd + month.newPaying - month.churned);
    }
  });

  it('has no rate without sign-ups', () => {
    expect(computeFigures([], [], NOW).headline).toEqual({
      mrr: 0,
      payingMembers: 0,
      trials: 0,
      conversion: { signUps: 0, converted: 0, rate: null },
      oneTime: { posts: 0, tips: 0, gifts: 0 },
    });
  });

  it('sums one-time payments by kind in the Japan month they were paid, this month in the headline', () => {
    const payments = [
      { kind: 'post' as const, amount: 300, paidAt: jst('2027-03-01T00:00:00') },
      { kind: 'post' as const, amount: 500, paidAt: jst('2027-03-10T12:00:00') },
      { kind: 'tip' as const, amount: 1000, paidAt: jst('2027-03-15T11:59:59') },
      { kind: 'gift-plan' as const, amount: 3300, paidAt: jst('2027-03-02T00:00:00') },
      // The last second of February in Japan: February's.
      { kind: 'tip' as const, amount: 100, paidAt: jst('2027-02-28T23:59:59') },
      // After the report's time: not yet.
      { kind: 'post' as const, amount: 700, paidAt: new Date(NOW + 1000) },
    ];
    const { headline, months } = computeFigures([], [], NOW, payments);
    expect(headline.oneTime).toEqual({ posts: 800, tips: 1000, gifts: 3300 });
    const byMonth = Object.fromEntries(months.map((m) => [m.month, m.oneTime]));
    expect(byMonth['2027-03']).toEqual({ posts: 800, tips: 1000, gifts: 3300 });
    expect(byMonth['2027-02']).toEqual({ posts: 0, tips: 100, gifts: 0 });
    expect(byMonth['2027-01']).toEqual({ posts: 0, tips: 0, gifts: 0 });
  });
});
