import { describe, expect, it } from 'vitest';
import { billingNoticeText, pastDuePlanOf } from './billing-notice';

describe('pastDuePlanOf', () => {
  it('is the newest live plan when it is past_due', () => {
    const plan = { status: 'past_due', id: 'b' };
    expect(pastDuePlanOf([{ status: 'canceled', id: 'a' }, plan])).toBe(plan);
  });

  it('is null when the newest live plan is paid, or there is none', () => {
    expect(pastDuePlanOf([{ status: 'active' }, { status: 'past_due' }])).toBeNull();
    expect(pastDuePlanOf([{ status: 'canceled' }, { status: 'unpaid' }])).toBeNull();
    expect(pastDuePlanOf([])).toBeNull();
  });
});

describe('billingNoticeText', () => {
  it('states the amount and the next retry date of a failed renewal, in yen and Japan time', () => {
    expect(
      billingNoticeText({
        kind: 'past_due',
        amount: 1100,
        nextAttempt: '2026-12-02T15:30:00.000Z',
      }),
    ).toBe(
      'カードでのお支払い（¥1,100）ができませんでした。2026年12月3日に自動で再度決済します。それまでにカード情報を更新してください。',
    );
  });

  it('leaves out what the billing data does not say', () => {
    expect(billingNoticeText({ kind: 'past_due', amount: null, nextAttempt: null })).toBe(
      'カードでのお支払いができませんでした。カード情報を更新してください。',
    );
  });

  it('says when a plan ended', () => {
    expect(
      billingNoticeText({
        kind: 'plan_ended',
        planName: '月額プラン',
        endedAt: '2026-11-20T03:00:00.000Z',
      }),
    ).toMatch(/^月額プランは2026年11月20日に終了しました。/);
  });
});

describe('the reversed second plan', () => {
  const reversed = {
    kind: 'duplicate_reversed',
    reversedPlan: 'メンバーシップ 年額プラン',
    keptPlan: 'メンバーシップ 月額プラン',
    refunded: 11000,
  } as const;

  it('says what was cancelled, what was refunded and which plan remains', () => {
    expect(billingNoticeText(reversed)).toBe(
      'すでにメンバーシップ 月額プランをご利用中のため、あとからお申し込みいただいたメンバーシップ 年額プランは取り消し、お支払いいただいた ¥11,000 を全額返金しました。メンバーシップ 月額プランはこれまでどおり続きます。',
    );
    expect(billingNoticeText({ ...reversed, refunded: 0, reversedPlan: '', keptPlan: '' })).toBe(
      'すでに有料プランをご利用中のため、あとからお申し込みいただいたプランは取り消しました（請求はしていません）。ご利用中のプランはこれまでどおり続きます。',
    );
  });
});

describe('a renewal waiting for 3-D Secure', () => {
  it('asks for the authentication instead of a new card', () => {
    const text = billingNoticeText({
      kind: 'past_due',
      amount: 1100,
      nextAttempt: null,
      authenticationUrl: 'https://example.jp/a',
    });
    expect(text).toContain('本人認証（3Dセキュア）が必要です');
    expect(text).toContain('¥1,100');
    expect(text).not.toContain('カード情報を更新');
  });
});
