import { describe, expect, it } from 'vitest';
import { planText } from '@/lib/identity/user-labels';

describe('planText', () => {
  const base = {
    paid: true,
    planName: '月額プラン',
    status: 'active',
    cancelAtPeriodEnd: false,
  } as const;

  it('names a paid plan with its state and end (Japan date)', () => {
    expect(planText({ ...base, endsAt: '2026-12-31T15:30:00Z' })).toBe(
      '有料会員（月額プラン、有効、2027年1月1日まで）',
    );
  });

  it('says when a plan has no end or ends at the end of its term', () => {
    expect(planText({ ...base, status: 'trialing', endsAt: null })).toBe(
      '有料会員（月額プラン、無料体験中、期限なし）',
    );
    expect(planText({ ...base, endsAt: '2026-06-01T00:00:00Z', cancelAtPeriodEnd: true })).toBe(
      '有料会員（月額プラン、有効、2026年6月1日まで（解約予定））',
    );
  });

  it('is 無料会員 without a live plan', () => {
    expect(
      planText({
        paid: false,
        planName: null,
        status: null,
        endsAt: null,
        cancelAtPeriodEnd: false,
      }),
    ).toBe('無料会員');
  });
});
