// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const server = vi.hoisted(() => ({
  listPlans: vi.fn(),
  getUser: vi.fn(),
  trialDaysFor: vi.fn(),
}));
vi.mock('server-only', () => ({}));
vi.mock('@/server/features/billing/catalogue', () => ({
  shownPlans: { get: server.listPlans },
}));
vi.mock('@/server/features/billing/checkout', () => ({ trialDaysFor: server.trialDaysFor }));
vi.mock('@/server/features/identity/session', () => ({ getUser: server.getUser }));
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));

import { GiftBanner } from './gift-banner';
import { GiftInvitation } from './gift-invitation';

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUv';
const GIFT = {
  contentId: 'abc',
  giverName: '有料 あおい',
  expiresAt: new Date(Date.now() + 86_400_000),
};
const back = encodeURIComponent(`/posts/abc?gift=${TOKEN}`);
const post = encodeURIComponent('/posts/abc');

beforeEach(() => {
  vi.clearAllMocks();
  server.listPlans.mockResolvedValue([
    {
      key: 'monthly',
      name: '月額プラン',
      amount: 1100,
      interval: 'month',
      intervalCount: 1,
      active: true,
    },
    {
      key: 'yearly',
      name: '年額プラン',
      amount: 11000,
      interval: 'year',
      intervalCount: 1,
      active: true,
    },
  ]);
});

describe('the gift banner', () => {
  it('signing up or in returns to the gift link itself', () => {
    render(<GiftBanner gift={GIFT} token={TOKEN} signedIn={false} returnTo="/posts/abc" />);
    expect(screen.getByRole('link', { name: '無料で会員登録する' })).toHaveAttribute(
      'href',
      `/sign-up?next=${back}`,
    );
    expect(screen.getByRole('link', { name: 'ログイン' })).toHaveAttribute(
      'href',
      `/login?next=${back}`,
    );
  });

  it('a member is led to the plans and back to the post, without the token', () => {
    render(<GiftBanner gift={GIFT} token={TOKEN} signedIn returnTo="/posts/abc" />);
    expect(screen.getByRole('link', { name: '有料プランを見る' })).toHaveAttribute(
      'href',
      `/service-plans?next=${post}`,
    );
  });
});

describe('the invitation at the end of a gifted post', () => {
  const invitation = () =>
    within(screen.getByRole('complementary', { name: '有料会員になると、すべての記事が読めます' }));

  it('a visitor: each plan with its price and the trial of a new account, back to the post', async () => {
    server.getUser.mockResolvedValue(null);
    render(await GiftInvitation({ returnTo: '/posts/abc' }));
    expect(invitation().getByText('最初の14日間は無料')).toBeInTheDocument();
    expect(
      invitation().getByRole('link', { name: /月額プランで申し込む.*¥1,100（税込）／月/ }),
    ).toHaveAttribute('href', `/service-plans/confirm?plan=monthly&next=${post}`);
    expect(invitation().getByRole('link', { name: '料金プランを見る' })).toHaveAttribute(
      'href',
      `/service-plans?next=${post}`,
    );
    expect(server.trialDaysFor).not.toHaveBeenCalled();
  });

  it('a member who had a plan: their own trial, none', async () => {
    server.getUser.mockResolvedValue({ id: 'u1', role: 'member' });
    server.trialDaysFor.mockResolvedValue(0);
    render(await GiftInvitation({ returnTo: '/posts/abc' }));
    expect(server.trialDaysFor).toHaveBeenCalledWith({}, 'u1');
    expect(invitation().queryByText(/日間は無料/)).toBeNull();
    expect(invitation().getByRole('link', { name: '有料プランを見る' })).toBeInTheDocument();
    expect(invitation().getAllByRole('link', { name: /で申し込む/ })).toHaveLength(2);
  });
});
