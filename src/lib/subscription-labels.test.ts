import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_STATE_LABELS, subscriptionStateLabel } from './subscription-labels';

describe('subscriptionStateLabel: one set of words for the site and the portal', () => {
  it('says 解約予定 with the last day for a plan set to end, from a date or Unix seconds', () => {
    const label = '解約予定（2027年5月1日まで利用できます）';
    const end = '2027-04-30T16:00:00.000Z';
    expect(subscriptionStateLabel({ status: 'active', cancelAtPeriodEnd: true, endsAt: end })).toBe(
      label,
    );
    expect(
      subscriptionStateLabel({
        status: 'active',
        cancelAtPeriodEnd: true,
        endsAt: Date.parse(end) / 1000,
      }),
    ).toBe(label);
    expect(subscriptionStateLabel({ status: 'trialing', cancelAtPeriodEnd: true })).toBe(
      '解約予定',
    );
  });

  it('says 終了 for an ended plan, never 解約予定', () => {
    expect(subscriptionStateLabel({ status: 'canceled', cancelAtPeriodEnd: true })).toBe('終了');
  });

  it('gives a trial its end date, and every other state its word', () => {
    expect(
      subscriptionStateLabel({
        status: 'trialing',
        cancelAtPeriodEnd: false,
        trialEnd: '2026-06-13T15:30:00Z',
      }),
    ).toBe('無料体験中（2026年6月14日まで）');
    expect(subscriptionStateLabel({ status: 'past_due', cancelAtPeriodEnd: false })).toBe(
      'お支払いが確認できません',
    );
    expect(new Set(Object.values(SUBSCRIPTION_STATE_LABELS)).size).toBe(
      Object.keys(SUBSCRIPTION_STATE_LABELS).length,
    );
  });
});
