// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MONTHLY_PLAN as MONTHLY, YEARLY_PLAN as YEARLY } from '@test-support/plans';
import { CheckoutConfirmation } from './checkout-confirmation';
import { expectLinkTo } from '@test-support/links';
import { offerTerms } from '@/lib/billing/offer-terms';

// 1 June 2026, 01:00 in Japan (still 31 May in UTC): dates are Japan's.
const NOW = new Date('2026-05-31T16:00:00.000Z');

function rowText(label: string): string {
  const header = screen.getByRole('rowheader', { name: label });
  const row = header.closest('tr');
  if (!row) throw new Error(`no row ${label}`);
  return within(row).getByRole('cell').textContent ?? '';
}

describe('CheckoutConfirmation (最終確認画面)', () => {
  it('with a trial: the price and tax, the first charge on the trial end in Japan time, renewal and cancellation', () => {
    render(<CheckoutConfirmation plan={MONTHLY} trialDays={14} trialOffered now={NOW} />);
    expect(
      screen.getByRole('heading', { level: 1, name: 'お申し込み内容の確認' }),
    ).toBeInTheDocument();
    expect(rowText('商品（サービス）名')).toContain('メンバーシップ 月額プラン');
    const price = rowText('価格（税込）');
    expect(price).toContain('¥1,100（税込）／月');
    expect(price).toContain('うち消費税（10%） ¥100');
    expect(price).toContain('最初の 14 日間は無料です。無料期間の後は ¥1,100（税込）／月 です。');
    expect(rowText('支払方法')).toContain('クレジットカード');
    // 14 days after 1 June 01:00 JST is 15 June in Japan (14 June in UTC).
    expect(rowText('支払時期')).toBe(
      '無料体験終了日（2026年6月15日）に初回分を決済し、以後は毎月の更新日に自動で決済します。',
    );
    expect(rowText('自動更新')).toContain('解約されるまで、1か月ごとに自動で更新されます');
    expect(rowText('自動更新')).toContain(
      '自動で有料のご利用（¥1,100（税込）／月）に切り替わります',
    );
    expect(rowText('提供開始時期')).toContain('すぐにご利用いただけます');
    const cancel = rowText('解約方法と期限');
    expect(cancel).toContain(
      '「プランの管理」からいつでも解約でき、次回更新日の前日までに解約すれば次回以降の請求はありません',
    );
    expect(cancel).toContain('日割りでの返金はありません');
    expect(rowText('無料体験')).toContain('14 日間（初回の決済日は 2026年6月15日）');
    expect(rowText('無料体験')).toContain('1回限り');
    expectLinkTo('特定商取引法に基づく表記', '/specified-commercial-transactions');
    expect(screen.getByRole('link', { name: '利用規約' })).toHaveAttribute('href', '/terms');
  });

  it('without a trial: charged at application, then every year', () => {
    render(<CheckoutConfirmation plan={YEARLY} trialDays={0} trialOffered now={NOW} />);
    expect(rowText('価格（税込）')).toContain('¥11,000（税込）／年');
    expect(rowText('価格（税込）')).toContain('うち消費税（10%） ¥1,000');
    expect(rowText('価格（税込）')).not.toContain('無料');
    expect(rowText('支払時期')).toBe(
      '申込み時に初回分を決済し、以後は毎年の更新日に自動で決済します。',
    );
    expect(rowText('自動更新')).toContain('1年ごとに自動で更新されます');
    expect(rowText('提供開始時期')).toBe('決済の完了後、すぐにご利用いただけます。');
    expect(rowText('無料体験')).toContain('対象外');
  });

  it('leaves the trial row out when the site offers none', () => {
    render(<CheckoutConfirmation plan={MONTHLY} trialDays={0} trialOffered={false} now={NOW} />);
    expect(screen.queryByRole('rowheader', { name: '無料体験' })).toBeNull();
  });

  it('posts the plan to the checkout, says nothing is charged yet, and links back', () => {
    render(<CheckoutConfirmation plan={YEARLY} trialDays={14} trialOffered now={NOW} />);
    const button = screen.getByRole('button', { name: '確認して申し込む（決済画面へ）' });
    const form = button.closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/billing/checkout');
    expect(form.querySelector('input[type="hidden"][name="plan"]')).toHaveValue('yearly');
    expect(
      screen.getByText('この画面の次の決済画面でカード情報を入力するまで、料金は発生しません。'),
    ).toBeInTheDocument();
    expectLinkTo('プランを選び直す', '/service-plans');
  });

  it('shows the one-time message of a refused checkout', () => {
    render(
      <CheckoutConfirmation
        plan={MONTHLY}
        trialDays={0}
        trialOffered
        now={NOW}
        errorMessage="すでに有料プランをご利用中です。"
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('すでに有料プランをご利用中です。');
  });

  it('with an offer: the discounted charge with its tax, how long, the regular price after', () => {
    const offer = {
      code: 'WELCOME',
      name: '初月半額',
      percentOff: 50,
      amountOff: null,
      duration: 'once' as const,
      durationInMonths: null,
      firstTimeOnly: true,
      products: null,
    };
    const terms = offerTerms(offer, MONTHLY)!;
    const props = { plan: MONTHLY, trialDays: 0, trialOffered: true, now: NOW };
    render(<CheckoutConfirmation {...props} offer={{ code: 'WELCOME', terms }} />);
    const price = rowText('価格（税込）');
    expect(price).toContain('初月 ¥550（通常 ¥1,100）');
    expect(price).toContain('割引後のお支払い（税込）¥550、うち消費税（10%） ¥50');
    expect(price).toContain('その後は通常の ¥1,100（税込）／月 です');
    expect(price).toContain('うち消費税（10%） ¥100');
    expect(price).toContain('クーポンコード「WELCOME」（初月半額）');
    expect(rowText('自動更新')).toContain('割引の適用中は ¥550（税込）を決済します（初月）');
    expect(document.querySelector('input[name="offer"]')).toHaveValue('WELCOME');
    // The offer replaces the trial: said as such, not as a reader who is not a first-timer.
    const trial = rowText('無料体験');
    expect(trial).not.toContain('対象外');
    expect(trial).not.toContain('初めて');
    expect(trial).toBe(
      'クーポンコード「WELCOME」の割引を適用するため、無料体験はつきません（割引との併用はできません）。',
    );
  });

  it('names the offer for the plan it is applied to, whatever staff called it', () => {
    const offer = {
      code: 'WELCOME',
      name: '初月半額',
      percentOff: 50,
      amountOff: null,
      duration: 'once' as const,
      durationInMonths: null,
      firstTimeOnly: false,
      products: null,
    };
    const terms = offerTerms(offer, YEARLY)!;
    render(
      <CheckoutConfirmation
        plan={YEARLY}
        trialDays={0}
        trialOffered={false}
        now={NOW}
        offer={{ code: 'WELCOME', terms }}
      />,
    );
    const price = rowText('価格（税込）');
    expect(price).toContain('初年度 ¥5,500（通常 ¥11,000）');
    expect(price).toContain('クーポンコード「WELCOME」（初年度半額）');
    expect(price).not.toContain('初月');
    // The site offers no trial: nothing to say about one.
    expect(screen.queryByRole('rowheader', { name: '無料体験' })).toBeNull();
  });
});
