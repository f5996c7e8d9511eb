// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MONTHLY_PLAN as MONTHLY } from '@test-support/plans';
import { CheckoutConfirmation } from '@/components/billing/checkout-confirmation';
import { CardCheckoutForm, CardPaymentSection } from './card-payment';

const NOW = new Date('2026-05-31T16:00:00.000Z');
const CANCEL = 'サイトの運営者へのご連絡でいつでも解約できます。';

/** The 法人プラン's final confirmation: the individual plans' screen with seats × price. */
describe('a card organisation’s final confirmation and its form', () => {
  it('states seats × price with tax, the renewal of the total, the cancellation, and posts the organisation only', () => {
    render(
      <CheckoutConfirmation
        plan={MONTHLY}
        trialDays={0}
        trialOffered={false}
        now={NOW}
        seats={{ count: 3, cancel: CANCEL }}
        back={{ href: '/account/organization?org=o1', label: '法人プランの管理に戻る' }}
        signUp={<CardCheckoutForm organizationId="o1" />}
      />,
    );
    const region = screen.getByRole('region', { name: 'お申し込み内容（要点）' });
    const terms = within(region).getAllByRole('term');
    const details = within(region).getAllByRole('definition');
    const brief = Object.fromEntries(terms.map((t, i) => [t.textContent, details[i]?.textContent]));
    expect(brief).toEqual({
      プラン: 'メンバーシップ 月額プラン（法人プラン 3 席、会員限定の記事・音声・動画）',
      '価格（税込）': '¥1,100 × 3 席 = ¥3,300（税込）／月（うち消費税 ¥300）',
      自動更新: '解約されるまで1か月ごとに自動更新し、毎月の更新日に ¥3,300（税込）を決済',
      解約: CANCEL,
      '支払・開始': 'クレジットカード（次の画面で入力）。決済の完了後からすぐに利用できます',
    });
    const table = screen.getByRole('table');
    expect(table).toHaveTextContent('1 席 ¥1,100 × 3 席');
    expect(table).toHaveTextContent('更新のたびに ¥3,300（税込）を決済します');
    expect(table).toHaveTextContent(CANCEL);
    expect(table).not.toHaveTextContent('無料体験');

    const button = screen.getByRole('button', { name: 'カードで支払う（決済画面へ）' });
    const form = button.closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/organization/checkout');
    expect(Object.fromEntries(new FormData(form))).toEqual({ org: 'o1' });
    expect(screen.getByRole('link', { name: '法人プランの管理に戻る' })).toHaveAttribute(
      'href',
      '/account/organization?org=o1',
    );
  });

  it('the organisation page links to that confirmation with the seats’ price', () => {
    render(
      <CardPaymentSection
        seats={3}
        price="¥3,300（税込）／月"
        confirmHref="/account/organization/checkout?org=o1"
      />,
    );
    expect(screen.getByText(/3 席で ¥3,300（税込）／月/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'カードで支払う' })).toHaveAttribute(
      'href',
      '/account/organization/checkout?org=o1',
    );
  });
});
