// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BillingNotice } from '@/lib/billing-notice';
import { BillingNoticeBand } from './billing-notice-banner.client';

const PAST_DUE = {
  kind: 'past_due',
  amount: 1100,
  nextAttempt: '2026-12-02T15:30:00.000Z',
} as const;
const BILLING_NOTICE_TEXT =
  'カードでのお支払い（¥1,100）ができませんでした。2026年12月3日に自動で再度決済します。それまでにカード情報を更新してください。';
const ENDED = {
  kind: 'plan_ended',
  planName: '月額プラン',
  endedAt: '2026-11-20T03:00:00Z',
} as const;

let pathname = '/posts';
vi.mock('next/navigation', () => ({ usePathname: () => pathname }));

afterEach(() => {
  pathname = '/posts';
});

const band = (notice: NonNullable<BillingNotice>) => render(<BillingNoticeBand notice={notice} />);

describe('BillingNoticeBand', () => {
  // Each notice in its own words and with its one way on.
  it.each([
    {
      what: 'a reader whose renewal failed, with the amount and the retry date',
      path: '/posts',
      notice: PAST_DUE,
      label: 'お支払いについてのお知らせ',
      text: BILLING_NOTICE_TEXT,
      link: '料金プランのページで更新する',
      href: '/service-plans',
    },
    {
      what: 'a renewal waiting for 3-D Secure, with the page that completes it',
      path: '/posts',
      notice: { ...PAST_DUE, authenticationUrl: 'https://invoice.stripe.com/i/acct_1/test_1' },
      label: 'お支払いについてのお知らせ',
      text: 'カード発行会社の本人認証（3Dセキュア）が必要です。',
      link: '本人認証を行う',
      href: 'https://invoice.stripe.com/i/acct_1/test_1',
    },
    {
      what: 'that a plan ended',
      path: '/service-plans',
      notice: ENDED,
      label: 'プランについてのお知らせ',
      text: '月額プランは2026年11月20日に終了しました。',
      link: '料金プランを見る',
      href: '/service-plans',
    },
    {
      what: 'that a second plan was taken back and refunded, and which plan remains',
      path: '/posts',
      notice: {
        kind: 'duplicate_reversed',
        reversedPlan: '年額プラン',
        keptPlan: '月額プラン',
        refunded: 11000,
      },
      label: 'プランについてのお知らせ',
      text: 'あとからお申し込みいただいた年額プランは取り消し、お支払いいただいた ¥11,000 を全額返金しました。月額プランはこれまでどおり続きます。',
      link: 'ご利用中のプランを見る',
      href: '/service-plans',
    },
  ] as const)('tells $what', ({ path, notice, label, text, link, href }) => {
    pathname = path;
    band(notice);
    expect(screen.getByRole('complementary', { name: label })).toHaveTextContent(text);
    expect(screen.getByRole('link', { name: link })).toHaveAttribute('href', href);
  });

  it.each([
    { where: 'the plans page, which says it there', path: '/service-plans', notice: PAST_DUE },
    { where: 'the account hub, which says it itself', path: '/account', notice: PAST_DUE },
    { where: 'the account hub, which says it itself', path: '/account', notice: ENDED },
  ] as const)('leaves a $notice.kind notice to $where', ({ path, notice }) => {
    pathname = path;
    const { container } = band(notice);
    expect(container).toBeEmptyDOMElement();
  });
});
