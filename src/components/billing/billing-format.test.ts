import { describe, expect, it } from 'vitest';
import {
  formatMonthDayJa,
  includedTax,
  monthlyEquivalent,
  planPrice,
  planRenewalLine,
  planStatusLabel,
  receiptLineLabel,
  renewalEvery,
  savingAgainstMonthly,
  servicePeriod,
} from './billing-format';

const monthly = { amount: 1100, interval: 'month', intervalCount: 1 } as const;
const yearly = { amount: 11000, interval: 'year', intervalCount: 1 } as const;

describe('billing words and numbers', () => {
  it('prices plans tax-inclusive with their period', () => {
    expect(planPrice(monthly)).toBe('¥1,100（税込）／月');
    expect(planPrice(yearly)).toBe('¥11,000（税込）／年');
    expect(planPrice({ amount: 3000, interval: 'month', intervalCount: 3 })).toBe(
      '¥3,000（税込）／3か月',
    );
    expect(renewalEvery('month')).toBe('毎月');
    expect(renewalEvery('year')).toBe('毎年');
  });

  it('gives the yearly plan’s monthly equivalent and saving', () => {
    expect(monthlyEquivalent(monthly)).toBeNull();
    expect(monthlyEquivalent(yearly)).toBe(917);
    expect(savingAgainstMonthly(yearly, monthly)).toBe(2200);
    expect(savingAgainstMonthly(monthly, monthly)).toBe(0);
    expect(savingAgainstMonthly({ ...yearly, amount: 14000 }, monthly)).toBe(0);
  });

  it('finds the 10 % tax inside a tax-inclusive amount, rounded down', () => {
    expect(includedTax(1100)).toBe(100);
    expect(includedTax(11000)).toBe(1000);
    expect(includedTax(980)).toBe(89);
    expect(includedTax(0)).toBe(0);
  });

  it('says a plan’s status and what happens next, in Japan time', () => {
    const plan = {
      provider: 'stripe',
      planName: '月額',
      planKey: 'monthly',
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: '2026-06-30T16:00:00.000Z',
      trialEnd: null,
    } as const;
    expect(planStatusLabel(plan)).toBe('有効');
    expect(planRenewalLine(plan)).toBe('次回更新日 2026年7月1日');
    expect(planRenewalLine({ ...plan, cancelAtPeriodEnd: true })).toBe(
      '2026年7月1日で終了（自動更新されません）',
    );
    // The portal's words (src/lib/subscription-labels.ts).
    expect(planStatusLabel({ ...plan, cancelAtPeriodEnd: true })).toBe(
      '解約予定（2026年7月1日まで利用できます）',
    );
    expect(planStatusLabel({ ...plan, status: 'trialing', trialEnd: '2026-06-13T15:30:00Z' })).toBe(
      '無料体験中（2026年6月14日まで）',
    );
    expect(planStatusLabel({ ...plan, status: 'past_due' })).toBe('お支払いが確認できません');
    // An unpaid renewal promises no next date.
    expect(planRenewalLine({ ...plan, status: 'past_due' })).toBeNull();
    expect(planRenewalLine({ ...plan, provider: 'complimentary', currentPeriodEnd: null })).toBe(
      'ご利用期限 なし',
    );
    expect(formatMonthDayJa(null)).toBe('');
  });

  it('writes the provider’s English invoice lines in Japanese', () => {
    expect(receiptLineLabel('1 × メンバーシップ 月額プラン (at ¥1,100 / month)')).toBe(
      'メンバーシップ 月額プラン',
    );
    expect(receiptLineLabel('Trial period for メンバーシップ 年額プラン')).toBe(
      'メンバーシップ 年額プラン（無料体験）',
    );
    expect(receiptLineLabel('Unused time on メンバーシップ 月額プラン after 14 Jun 2026')).toBe(
      'メンバーシップ 月額プラン（変更前のプランの未使用期間分）',
    );
    expect(receiptLineLabel('Remaining time on メンバーシップ 年額プラン after 14 Jun 2026')).toBe(
      'メンバーシップ 年額プラン（変更後のプランの残り期間分）',
    );
    expect(receiptLineLabel('特別料金')).toBe('特別料金');
  });

  it('shows a service period up to the day before the next one starts', () => {
    expect(servicePeriod('2026-06-14T03:00:00Z', '2026-07-14T03:00:00Z')).toBe(
      '2026年6月14日〜2026年7月14日',
    );
    expect(servicePeriod('2026-05-31T15:00:00Z', '2026-06-30T15:00:00Z')).toBe(
      '2026年6月1日〜2026年6月30日',
    );
    expect(servicePeriod(null, '2026-07-14T03:00:00Z')).toBeNull();
  });
});
