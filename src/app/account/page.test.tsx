// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const server = vi.hoisted(() => ({
  requireUser: vi.fn(),
  hasPassword: vi.fn(),
  getProfileDetails: vi.fn(),
  billingSummaryFor: vi.fn(),
  readerBillingNotice: vi.fn(),
  podcastFeedOf: vi.fn(),
}));
vi.mock('server-only', () => ({}));
vi.mock('@/server/features/identity/session', () => ({
  requireUser: server.requireUser,
  hasPassword: server.hasPassword,
}));
vi.mock('@/server/features/profiles/profiles', () => ({
  getProfileDetails: server.getProfileDetails,
}));
vi.mock('@/server/features/billing/reader-billing', () => ({
  billingSummaryFor: server.billingSummaryFor,
}));
vi.mock('@/server/features/billing/reader-notices', () => ({
  readerBillingNotice: server.readerBillingNotice,
}));
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));
vi.mock('@/components/account/metadata', () => ({ accountMetadata: () => ({}) }));
vi.mock('@/components/account/podcast-feed-section', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  podcastFeedOf: server.podcastFeedOf,
}));
vi.mock('@/server/platform/http/read-flash', () => ({ readFlash: () => Promise.resolve(null) }));
vi.mock('@/server/features/newsletter/tracking', () => ({
  trackingAllowed: () => Promise.resolve(true),
}));

import AccountHubPage from './page';

beforeEach(() => {
  server.requireUser.mockResolvedValue({
    id: 'u1',
    name: '読者',
    email: 'r@example.jp',
    emailVerified: true,
  });
  server.hasPassword.mockResolvedValue(true);
  server.getProfileDetails.mockResolvedValue({
    displayName: '読者',
    partnerId: '',
    newsletter: true,
  });
  server.billingSummaryFor.mockResolvedValue({ customerId: null, current: null, trialDays: 0 });
  server.readerBillingNotice.mockResolvedValue(null);
  server.podcastFeedOf.mockRejectedValue(new Error('no database here'));
});

describe('/account, the account hub', () => {
  it('sends a signed-out visitor to the login page, coming back here', async () => {
    server.requireUser.mockRejectedValue(new Error('NEXT_REDIRECT'));
    await expect(AccountHubPage()).rejects.toThrow('NEXT_REDIRECT');
    expect(server.requireUser).toHaveBeenCalledWith('/account');
  });

  it('links to everything a reader manages, and signs out without JavaScript', async () => {
    render(await AccountHubPage());
    expect(screen.getByRole('heading', { level: 1, name: 'アカウント' })).toBeInTheDocument();
    const href = (name: RegExp) => screen.getByRole('link', { name }).getAttribute('href');
    expect(href(/料金プランを見る/)).toBe('/service-plans');
    expect(href(/領収書/)).toBe('/account/receipts');
    expect(href(/プロフィールの編集/)).toBe('/account/edit');
    // The newsletter: its state, and one button that stops it (or starts it again).
    expect(screen.getByText(/メールで受け取っています/)).toBeInTheDocument();
    const newsletter = screen.getByRole('button', { name: '配信を停止する' }).closest('form');
    expect(newsletter).toHaveAttribute('action', '/api/newsletter/account');
    expect(newsletter?.querySelector('input[name="subscribed"]')).toHaveAttribute('value', 'off');
    // The letters' tracking, said and switched off the same way (docs/decisions/063-newsletter-analytics.md).
    const tracking = screen
      .getByRole('button', { name: '開封・クリックの計測を止める' })
      .closest('form');
    expect(tracking).toHaveAttribute('action', '/api/newsletter/tracking');
    expect(tracking?.querySelector('input[name="tracking"]')).toHaveAttribute('value', 'off');
    expect(href(/メールアドレスの変更/)).toBe('/account/change-email');
    expect(href(/ブックマーク/)).toBe('/posts/bookmark');
    expect(href(/退会する/)).toBe('/account/delete');
    const signOut = screen.getByRole('button', { name: 'ログアウト' }).closest('form');
    expect(signOut).toHaveAttribute('action', '/api/account/sign-out');
    expect(signOut).toHaveAttribute('method', 'post');
    expect(screen.getByText('無料会員')).toBeInTheDocument();
  });

  it('offers 「パスワードを設定」 to an account without a password, once its address is confirmed', async () => {
    render(await AccountHubPage());
    expect(screen.queryByRole('region', { name: 'パスワードを設定' })).toBeNull();

    server.hasPassword.mockResolvedValue(false);
    render(await AccountHubPage());
    const section = screen.getByRole('region', { name: 'パスワードを設定' });
    const form = within(section).getByRole('button', { name: 'パスワードを設定' }).closest('form');
    expect(form).toHaveAttribute('action', '/api/account/set-password');
    expect(within(section).getByLabelText('パスワード', { exact: true })).toHaveAttribute(
      'autocomplete',
      'new-password',
    );
  });

  it('asks an unconfirmed account to confirm the address before setting a password', async () => {
    server.hasPassword.mockResolvedValue(false);
    server.requireUser.mockResolvedValue({
      id: 'u1',
      name: '読者',
      email: 'r@example.jp',
      emailVerified: false,
    });
    render(await AccountHubPage());
    const section = screen.getByRole('region', { name: 'パスワードを設定' });
    expect(section).toHaveTextContent('メールアドレスの確認が済むと、パスワードを設定できます');
    expect(within(section).queryByRole('button')).toBeNull();
  });

  it('shows a paid plan in the site’s words, and the way to manage it', async () => {
    server.billingSummaryFor.mockResolvedValue({
      customerId: 'cus_1',
      trialDays: 0,
      current: {
        subscriptionId: 's1',
        provider: 'stripe',
        planName: '月額プラン',
        planKey: 'monthly',
        status: 'active',
        cancelAtPeriodEnd: true,
        currentPeriodEnd: new Date('2026-06-30T16:00:00.000Z'),
        trialEnd: null,
      },
    });
    render(await AccountHubPage());
    expect(
      screen.getByText(/月額プラン（解約予定（2026年7月1日まで利用できます））/),
    ).toBeInTheDocument();
    const billing = screen.getByRole('region', { name: 'プランとお支払い' });
    expect(within(billing).getByRole('link', { name: /プランの確認・変更・解約/ })).toHaveAttribute(
      'href',
      '/service-plans',
    );
  });

  it('tells the reader, once and without JavaScript, that a second plan was taken back and refunded', async () => {
    server.readerBillingNotice.mockResolvedValue({
      kind: 'duplicate_reversed',
      reversedPlan: 'メンバーシップ 年額プラン',
      keptPlan: 'メンバーシップ 月額プラン',
      refunded: 11000,
    });
    render(await AccountHubPage());
    // Rendered on the server: the page's HTML says it (reading it claimed the one telling).
    expect(server.readerBillingNotice).toHaveBeenCalledWith({}, 'u1');
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent(
      'すでにメンバーシップ 月額プランをご利用中のため、あとからお申し込みいただいたメンバーシップ 年額プランは取り消し、お支払いいただいた ¥11,000 を全額返金しました。メンバーシップ 月額プランはこれまでどおり続きます。',
    );
    // The notice sits at the top, before the account's details.
    expect(notice.compareDocumentPosition(screen.getByText('メールアドレス'))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it('states a failed renewal with the way to update the card, as an alert', async () => {
    server.readerBillingNotice.mockResolvedValue({
      kind: 'past_due',
      amount: 1100,
      nextAttempt: '2026-12-02T15:30:00.000Z',
    });
    render(await AccountHubPage());
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(
      'カードでのお支払い（¥1,100）ができませんでした。2026年12月3日に',
    );
    expect(
      within(alert).getByRole('link', { name: '料金プランのページで更新する' }),
    ).toHaveAttribute('href', '/service-plans');
  });

  it('still shows the hub when the notice cannot be worked out', async () => {
    server.readerBillingNotice.mockRejectedValue(new Error('offline'));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(await AccountHubPage());
    expect(screen.getByRole('heading', { level: 1, name: 'アカウント' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows the reader’s podcast feed: selectable without JavaScript, Apple Podcasts, 「URLを再発行」', async () => {
    const feedUrl = 'https://axis.example.jp/podcast/abcdefghijklmnopqrstuvwxyz012345/feed.xml';
    server.podcastFeedOf.mockResolvedValue({ feedUrl, paid: true });
    render(await AccountHubPage());
    const section = screen.getByRole('region', { name: 'ポッドキャスト' });
    const field = within(section).getByLabelText('フィードの URL');
    expect(field).toHaveValue(feedUrl);
    expect(field).toHaveAttribute('readonly');
    expect(within(section).getByRole('link', { name: 'Apple Podcasts で聴く' })).toHaveAttribute(
      'href',
      'podcast://axis.example.jp/podcast/abcdefghijklmnopqrstuvwxyz012345/feed.xml',
    );
    const reissue = within(section).getByRole('button', { name: 'URLを再発行' }).closest('form');
    expect(reissue).toHaveAttribute('action', '/api/account/podcast-feed');
    expect(reissue).toHaveAttribute('method', 'post');
    expect(section).toHaveTextContent('会員限定の回を含む');
  });

  it('leaves the podcast section out when the feed cannot be read', async () => {
    render(await AccountHubPage());
    expect(screen.queryByRole('region', { name: 'ポッドキャスト' })).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: 'アカウント' })).toBeInTheDocument();
  });
});
