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
  it('tells a reader whose renewal failed, from /api/me, with the amount, the retry date and a link to the plans page', async () => {
    renderWith({ ...ME, billingNotice: PAST_DUE });
    const notice = await screen.findByRole('complementary', { name: 'お支払いについてのお知らせ' });
    expect(notice).toHaveTextContent(BILLING_NOTICE_TEXT);
    expect(screen.getByRole('link', { name: '料金プランのページで更新する' })).toHaveAttribute(
      'href',
      '/service-plans',
    );
  });

  it('shows nothing to other readers, or an answer without the field', async () => {
    const fetchMock = renderWith({ ...ME, billingNotice: null });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByText(BILLING_NOTICE_TEXT)).toBeNull();
  });

  it('leaves the plans page to say it there', async () => {
    pathname = '/service-plans';
    const fetchMock = renderWith({ ...ME, billingNotice: PAST_DUE });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(screen.queryByText(BILLING_NOTICE_TEXT)).toBeNull();
  });

  it('says once that a plan ended, with the way back to the plans', async () => {
    pathname = '/service-plans';
    renderWith({
      ...ME,
      billingNotice: {
        kind: 'plan_ended',
        planName: '月額プラン',
        endedAt: '2026-11-20T03:00:00Z',
      },
    });
    const notice = await screen.findByRole('complementary', { name: 'プランについてのお知らせ' });
    expect(notice).toHaveTextContent('月額プランは2026年11月20日に終了しました。');
    expect(screen.getByRole('link', { name: '料金プランを見る' })).toHaveAttribute(
      'href',
      '/service-plans',
    );
  });

  it('says once that a second plan was taken back and refunded, and which plan remains', async () => {
    renderWith({
      ...ME,
      billingNotice: {
        kind: 'duplicate_reversed',
        reversedPlan: '年額プラン',
        keptPlan: '月額プラン',
        refunded: 11000,
      },
    });
    const notice = await screen.findByRole('complementary', { name: 'プランについてのお知らせ' });
    expect(notice).toHaveTextContent(
      'あとからお申し込みいただいた年額プランは取り消し、お支払いいただいた ¥11,000 を全額返金しました。月額プランはこれまでどおり続きます。',
    );
    expect(screen.getByRole('link', { name: 'ご利用中のプランを見る' })).toHaveAttribute(
      'href',
      '/service-plans',
    );
  });

  it('leaves a failed renewal to the account hub, which says it itself', async () => {
    pathname = '/account';
    const fetchMock = renderWith({ ...ME, billingNotice: PAST_DUE });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(screen.queryByText(BILLING_NOTICE_TEXT)).toBeNull();
  });
});
