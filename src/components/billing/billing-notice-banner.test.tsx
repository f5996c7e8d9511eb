// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthStateProvider } from '@/components/account/auth-state.client';
import { SIGNED_OUT_AUTH_STATE } from '@/lib/auth-state';
import { BillingNoticeBanner } from './billing-notice-banner.client';

const PAST_DUE = { kind: 'past_due', amount: 1100, nextAttempt: '2026-12-02T15:30:00.000Z' };
const BILLING_NOTICE_TEXT =
  'カードでのお支払い（¥1,100）ができませんでした。2026年12月3日に自動で再度決済します。それまでにカード情報を更新してください。';

let pathname = '/posts';
vi.mock('next/navigation', () => ({ usePathname: () => pathname }));

const ME = {
  ...SIGNED_OUT_AUTH_STATE,
  user: { uid: 'u1', displayName: '読者', partnerId: '', email: 'r@example.jp' },
  role: 'member',
};

function renderWith(me: object) {
  const fetchMock = vi.fn(() => Promise.resolve(Response.json(me)));
  vi.stubGlobal('fetch', fetchMock);
  render(
    <AuthStateProvider>
      <BillingNoticeBanner />
    </AuthStateProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  pathname = '/posts';
});

describe('BillingNoticeBanner', () => {
  // Each notice once, from /api/me, in its own words and with its way to the plans page.
  it.each([
    {
      what: 'a reader whose renewal failed, with the amount and the retry date',
      path: '/posts',
      notice: PAST_DUE,
      label: 'お支払いについてのお知らせ',
      text: BILLING_NOTICE_TEXT,
      link: '料金プランのページで更新する',
    },
    {
      what: 'that a plan ended',
      path: '/service-plans',
      notice: { kind: 'plan_ended', planName: '月額プラン', endedAt: '2026-11-20T03:00:00Z' },
      label: 'プランについてのお知らせ',
      text: '月額プランは2026年11月20日に終了しました。',
      link: '料金プランを見る',
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
    },
  ])('tells $what', async ({ path, notice, label, text, link }) => {
    pathname = path;
    renderWith({ ...ME, billingNotice: notice });
    const banner = await screen.findByRole('complementary', { name: label });
    expect(banner).toHaveTextContent(text);
    expect(screen.getByRole('link', { name: link })).toHaveAttribute('href', '/service-plans');
  });

  it('shows nothing to other readers, or an answer without the field', async () => {
    const fetchMock = renderWith({ ...ME, billingNotice: null });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByText(BILLING_NOTICE_TEXT)).toBeNull();
  });

  it.each([
    { where: 'the plans page, which says it there', path: '/service-plans' },
    { where: 'the account hub, which says it itself', path: '/account' },
  ])('leaves a failed renewal to $where', async ({ path }) => {
    pathname = path;
    const fetchMock = renderWith({ ...ME, billingNotice: PAST_DUE });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(screen.queryByText(BILLING_NOTICE_TEXT)).toBeNull();
  });
});
