// @vitest-environment jsdom
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthStateProvider } from '@/components/account/auth-state.client';
import { SIGNED_OUT_AUTH_STATE } from '@/lib/auth-state';
import { BILLING_NOTICE_TEXT, BillingNoticeBanner } from './billing-notice-banner.client';

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
  it('tells a reader whose renewal failed, from /api/me, with a link to the plans page', async () => {
    renderWith({ ...ME, billingNotice: 'past_due' });
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
    const fetchMock = renderWith({ ...ME, billingNotice: 'past_due' });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(screen.queryByText(BILLING_NOTICE_TEXT)).toBeNull();
  });
});
