// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MONTHLY_PLAN as MONTHLY, YEARLY_PLAN as YEARLY } from '@test-support/plans';
import { CheckoutConfirmation } from './checkout-confirmation';
import { GuestCheckoutForm } from './guest-checkout-form';

// 1 June 2026, 01:00 in Japan (still 31 May in UTC): dates are Japan's.
const NOW = new Date('2026-05-31T16:00:00.000Z');

/** The terms in brief, by their labels. */
function brief(): Record<string, string | undefined> {
  const region = screen.getByRole('region', { name: 'お申し込み内容（要点）' });
  const terms = within(region).getAllByRole('term');
  const details = within(region).getAllByRole('definition');
  return Object.fromEntries(terms.map((term, i) => [term.textContent, details[i]?.textContent]));
}

describe('the final confirmation terms in brief, and a visitor’s form', () => {
  it('states the price with tax, the trial and its first charge, the renewal and the cancellation', () => {
    render(<CheckoutConfirmation plan={MONTHLY} trialDays={14} trialOffered now={NOW} />);
    expect(brief()).toEqual({
      プラン: 'メンバーシップ 月額プラン（1アカウント、会員限定の記事・音声・動画）',
      '価格（税込）': '¥1,100（税込）／月（うち消費税 ¥100）',
      無料期間: '最初の 14 日間は無料。2026年6月15日に初回分を決済',
      自動更新: '解約されるまで1か月ごとに自動更新し、毎月の更新日に ¥1,100（税込）を決済',
      解約: '「プランの管理」からいつでも。2026年6月15日の前日までに解約すれば料金はかかりません',
      '支払・開始': 'クレジットカード（次の画面で入力）。お申し込み直後からすぐに利用できます',
    });
  });

  it('without a trial: no trial line, charged at once', () => {
    render(<CheckoutConfirmation plan={YEARLY} trialDays={0} trialOffered now={NOW} />);
    const terms = brief();
    expect(terms.無料期間).toBeUndefined();
    expect(terms.解約).toContain('次回更新日の前日までに解約すれば以後の請求はありません');
    expect(terms['支払・開始']).toContain('決済の完了後からすぐに利用できます');
  });

  it('a visitor types the address only, consents and goes on to the card form', () => {
    render(
      <CheckoutConfirmation
        plan={MONTHLY}
        trialDays={14}
        trialOffered
        now={NOW}
        next="/posts/abc"
        signUp={
          <GuestCheckoutForm
            plan="monthly"
            next="/posts/abc"
            flash={null}
            loginHref="/login?next=%2Fservice-plans%2Fconfirm"
          />
        }
      />,
    );
    const button = screen.getByRole('button', { name: '同意してカード情報の入力へ' });
    const form = button.closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/billing/guest-checkout');
    expect(within(form).getAllByRole('textbox')).toHaveLength(1);
    expect(within(form).getByRole('textbox', { name: /メールアドレス/ })).toHaveAttribute(
      'autocomplete',
      'email',
    );
    expect(within(form).getByRole('checkbox', { name: /に同意します/ })).toHaveAttribute(
      'name',
      'consent',
    );
    expect(form.querySelector('input[name="plan"]')).toHaveValue('monthly');
    expect(form.querySelector('input[name="next"]')).toHaveValue('/posts/abc');
    expect(screen.queryByLabelText('パスワード', { exact: true })).toBeNull();
  });
});
