// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as PartnerAccessModule from '@/server/features/partners/partner-access';
import type { PartnerActor } from '@/server/features/partners/partner-access';
import { EMPTY_LISTING } from '@/server/features/partners/jobs/listing-input';
import type { Listing } from '@/server/features/partners/jobs/listings';
import { draftListing } from '@test-support/listings';
import type * as ListingsModule from '@/server/features/partners/jobs/listings';
import type * as PartnersModule from '@/server/features/partners/partners';
import type { PartnerDetail } from '@/server/features/partners/partners';

// The dashboard's page with its data faked: who gets the site's 404 (before anything of the
// partner is read), and what a member and staff each see of the same partner.

const server = vi.hoisted(() => {
  const who: { actor: PartnerActor } = { actor: { kind: 'anonymous' } };
  return Object.assign(who, {
    getPartner: vi.fn(),
    listPartnerListings: vi.fn(),
    listMembers: vi.fn(),
    listEditorPlacedJobs: vi.fn(),
    countJobViews: vi.fn(),
    countApplyClicks: vi.fn(),
  });
});

vi.mock('next/navigation', () => ({
  notFound: () => {
    throw new Error('NEXT_NOT_FOUND');
  },
}));
vi.mock('@/components/listing/site-metadata', () => ({
  sitePageMetadata: (input: { title: string }) => input,
}));
// The page's real gate (src/server/features/partners/actor.ts), on the test's actor.
vi.mock('@/server/features/identity/session', () => ({ getUser: () => Promise.resolve(null) }));
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));
vi.mock('@/server/features/partners/partner-access', async (importOriginal) => ({
  ...(await importOriginal<typeof PartnerAccessModule>()),
  partnerActorOf: () => server.actor,
}));
vi.mock('@/server/features/partners/partners', async (importOriginal) => ({
  ...(await importOriginal<typeof PartnersModule>()),
  partnerDeps: () => Promise.resolve({ db: {}, content: {}, writer: () => ({}) }),
  getPartner: server.getPartner,
}));
vi.mock('@/server/features/partners/jobs/listings', async (importOriginal) => ({
  ...(await importOriginal<typeof ListingsModule>()),
  listPartnerListings: server.listPartnerListings,
}));
vi.mock('@/server/features/partners/members', () => ({ listMembers: server.listMembers }));
vi.mock('@/components/biz/partner-admin/editor-jobs', () => ({
  listEditorPlacedJobs: server.listEditorPlacedJobs,
}));
vi.mock('@/server/features/partners/jobs/apply-clicks', () => ({
  countJobViews: server.countJobViews,
  countApplyClicks: server.countApplyClicks,
}));
vi.mock('@/server/platform/http/read-flash', () => ({
  readFlash: () => Promise.resolve(null),
  typedText: () => undefined,
}));

import PartnerAdminPage from './page';

const SORANE: PartnerDetail = {
  id: 'partner-sorane',
  name: 'ソラネ建築設計事務所',
  description: '住宅と公共建築の設計事務所。',
  logo: null,
  website: 'https://example.com/partners/sorane',
  contract: { contractStart: '2026-04-01', contractEnd: '2027-03-31', listingQuota: 2 },
  contractState: 'active',
  memberCount: 1,
};

function listing(id: string, changes: Partial<Listing>): Listing {
  return draftListing(id, id, changes);
}

/** A row's link: its word, then (for screen readers) the listing it is for. */
const rowLink = (label: string, title: string) => new RegExp(`^${label}\\s*：${title}$`);

const show = async (partnerId = 'partner-sorane', query: Record<string, string> = {}) =>
  render(
    await PartnerAdminPage({
      params: Promise.resolve({ partnerId }),
      searchParams: Promise.resolve(query),
    }),
  );

afterEach(() => {
  vi.useRealTimers();
});

beforeEach(() => {
  vi.clearAllMocks();
  // Within SORANE's contract year, whatever day the suite runs.
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-27T03:00:00Z') });
  server.getPartner.mockResolvedValue(SORANE);
  server.listPartnerListings.mockResolvedValue([
    listing('job-aaaaaaaaaaaa', {
      state: 'published',
      publishedAt: new Date('2026-10-01T00:00:00Z'),
      liveUntil: '2099-12-31',
      fields: { ...EMPTY_LISTING, title: '建築設計スタッフ', closingDate: '2099-12-31' },
    }),
    listing('job-bbbbbbbbbbbb', { state: 'in_review' }),
    listing('job-cccccccccccc', {
      state: 'returned',
      reviewComment: '給与の範囲を書いてください。',
    }),
  ]);
  server.listMembers.mockResolvedValue([
    { userId: 'u1', email: 'partner@example.jp', displayName: '空野 音' },
  ]);
  server.listEditorPlacedJobs.mockResolvedValue([]);
  server.countJobViews.mockResolvedValue(new Map([['job-aaaaaaaaaaaa', 1234]]));
  server.countApplyClicks.mockResolvedValue(new Map([['job-aaaaaaaaaaaa', 56]]));
});

describe('/biz/partner-admin/{partnerId}: who gets it', () => {
  it.each<[string, PartnerActor, string]>([
    ['anonymous', { kind: 'anonymous' }, 'partner-sorane'],
    ['a free or paid member', { kind: 'member', partnerId: '' }, 'partner-sorane'],
    [
      'a member of another partner',
      { kind: 'member', partnerId: 'partner-lumeo' },
      'partner-sorane',
    ],
    ['a member, for an id that is not a partner id', { kind: 'member', partnerId: 'a b' }, 'a b'],
  ])('answers %s 404 without reading anything of the partner', async (_, actor, partnerId) => {
    server.actor = actor;
    await expect(show(partnerId)).rejects.toThrow('NEXT_NOT_FOUND');
    expect(server.getPartner).not.toHaveBeenCalled();
    expect(server.listPartnerListings).not.toHaveBeenCalled();
    expect(server.listMembers).not.toHaveBeenCalled();
  });

  it('answers staff 404 for a partner that does not exist', async () => {
    server.actor = { kind: 'staff' };
    server.getPartner.mockResolvedValue(null);
    await expect(show('partner-nowhere')).rejects.toThrow('NEXT_NOT_FOUND');
  });
});

describe('/biz/partner-admin/{partnerId}: what it shows', () => {
  it('shows a member the contract, the quota in use and why nothing can be submitted now', async () => {
    server.actor = { kind: 'member', partnerId: 'partner-sorane' };
    await show();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'パートナー管理：ソラネ建築設計事務所',
    );
    const contract = within(screen.getByRole('region', { name: 'ご契約' }));
    expect(contract.getByText('契約中')).toBeInTheDocument();
    expect(contract.getByText('2026年4月1日〜2027年3月31日')).toBeInTheDocument();
    // In review and live: two of two.
    expect(contract.getByText('2件中2件を使用')).toBeInTheDocument();
    expect(
      contract.getByText(
        '掲載できる求人の数の上限に達しています。公開中の求人を終了するか、担当者にお問い合わせください。',
      ),
    ).toBeInTheDocument();
  });

  it('lists a member’s listings with their state, counts and what they may do', async () => {
    server.actor = { kind: 'member', partnerId: 'partner-sorane' };
    await show();
    const listings = within(screen.getByRole('region', { name: /^求人/ }));
    expect(listings.getByRole('link', { name: '新しい求人を作成' })).toHaveAttribute(
      'href',
      '/jobs/post',
    );
    const live = within(listings.getByRole('article', { name: '建築設計スタッフ' }));
    expect(live.getByText('公開中')).toBeInTheDocument();
    expect(live.getByText('1,234')).toBeInTheDocument();
    expect(live.getByText('56')).toBeInTheDocument();
    expect(live.getByRole('link', { name: rowLink('編集', '建築設計スタッフ') })).toHaveAttribute(
      'href',
      '/jobs/post?listing=job-aaaaaaaaaaaa',
    );
    expect(
      live.getByRole('link', { name: rowLink('求人ページ', '建築設計スタッフ') }),
    ).toHaveAttribute('href', '/jobs/job-aaaaaaaaaaaa');
    const inReview = within(listings.getByRole('article', { name: '求人 job-bbbbbbbbbbbb' }));
    expect(inReview.getByText('審査中')).toBeInTheDocument();
    expect(inReview.queryByRole('link', { name: /^求人ページ/ })).toBeNull();
    expect(inReview.getByRole('link', { name: /^プレビュー/ })).toHaveAttribute(
      'href',
      '/jobs/preview/job-bbbbbbbbbbbb',
    );
    const returned = within(listings.getByRole('article', { name: '求人 job-cccccccccccc' }));
    expect(returned.getByText('差し戻し')).toBeInTheDocument();
    expect(returned.getByText('給与の範囲を書いてください。')).toBeInTheDocument();
    const members = within(screen.getByRole('region', { name: /^メンバー/ }));
    expect(members.getByText('partner@example.jp')).toBeInTheDocument();
    expect(members.getByText('メンバーの追加・削除は担当者にご連絡ください。')).toBeInTheDocument();
  });

  it('shows staff the same partner without writing links, and where to change members', async () => {
    server.actor = { kind: 'staff' };
    await show();
    const listings = within(screen.getByRole('region', { name: /^求人/ }));
    expect(listings.queryByRole('link', { name: '新しい求人を作成' })).toBeNull();
    expect(listings.queryByRole('link', { name: /^編集/ })).toBeNull();
    expect(listings.getAllByRole('link', { name: /^プレビュー/ })).toHaveLength(3);
    const members = within(screen.getByRole('region', { name: /^メンバー/ }));
    expect(
      members.getByRole('link', { name: 'メンバーを追加・削除する（パートナー企業の編集画面）' }),
    ).toHaveAttribute('href', '/biz/axis-admin/partner-sorane#members');
  });

  it('offers a member with no listings to write the first one', async () => {
    server.actor = { kind: 'member', partnerId: 'partner-sorane' };
    server.listPartnerListings.mockResolvedValue([]);
    await show();
    const listings = within(screen.getByRole('region', { name: /^求人/ }));
    expect(listings.getByText('まだ求人はありません。')).toBeInTheDocument();
    expect(listings.getByRole('link', { name: '新しい求人を作成' })).toHaveAttribute(
      'href',
      '/jobs/post',
    );
  });

  it('fills the profile form and says when it was saved', async () => {
    server.actor = { kind: 'member', partnerId: 'partner-sorane' };
    await show('partner-sorane', { saved: 'profile' });
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('企業情報を保存しました。');
    const profile = within(screen.getByRole('region', { name: '企業情報' }));
    expect(profile.getByLabelText('紹介文')).toHaveValue('住宅と公共建築の設計事務所。');
    expect(profile.getByLabelText('ウェブサイト')).toHaveValue(
      'https://example.com/partners/sorane',
    );
    expect(profile.getByLabelText('ロゴ画像')).toHaveAttribute('type', 'file');
    expect(
      profile.getByText('企業名と契約内容の変更は担当者にご連絡ください。', { exact: false }),
    ).toBeInTheDocument();
    expect(
      profile.getByRole('button', { name: '企業情報を保存する' }).closest('form'),
    ).toHaveAttribute('action', '/api/biz/partner-admin/partner-sorane/profile');
  });
});
