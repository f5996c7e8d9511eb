// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as EnvModule from '@/env';

const server = vi.hoisted(() => ({ listPlans: vi.fn() }));
const settings = vi.hoisted(() => ({ trialDays: 14 }));
vi.mock('server-only', () => ({}));
vi.mock('@/env', async (importOriginal) => {
  const actual = await importOriginal<typeof EnvModule>();
  return { ...actual, env: () => ({ ...actual.env(), BILLING_TRIAL_DAYS: settings.trialDays }) };
});
vi.mock('@/server/features/billing/catalogue', () => ({
  shownPlans: { get: server.listPlans },
}));
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));

import { Paywall } from './paywall';

const plan = (key: 'monthly' | 'yearly', name: string, amount: number, active = true) => ({
  key,
  name,
  amount,
  interval: key === 'monthly' ? 'month' : 'year',
  intervalCount: 1,
  active,
  priceId: `price_${key}`,
});

beforeEach(() => {
  vi.clearAllMocks();
  server.listPlans.mockResolvedValue([
    plan('monthly', '月額プラン', 1100),
    plan('yearly', '年額プラン', 11000),
  ]);
});

const subscribe = (anonymous: boolean) =>
  ({ opensWith: 'subscribe', anonymous }) as Parameters<typeof Paywall>[0]['cta'];

describe('the paywall of a paid item offers the plans itself', () => {
  it('one link per plan on sale to its confirmation screen, named by plan and price', async () => {
    render(await Paywall({ cta: subscribe(true), item: 'post', returnTo: '/posts/abc' }));
    const plans = within(screen.getByRole('list', { name: '有料プラン' }));
    const monthly = plans.getByRole('link', { name: /月額プランで申し込む.*¥1,100（税込）／月/ });
    const yearly = plans.getByRole('link', { name: /年額プランで申し込む.*¥11,000（税込）／年/ });
    expect(monthly).toHaveAttribute(
      'href',
      `/service-plans/confirm?plan=monthly&next=${encodeURIComponent('/posts/abc')}`,
    );
    expect(yearly).toHaveAttribute(
      'href',
      `/service-plans/confirm?plan=yearly&next=${encodeURIComponent('/posts/abc')}`,
    );
    // One primary button on the screen, the plan the plans page recommends (the least a month).
    expect(yearly.className).toMatch(/primary/);
    expect(monthly.className).toMatch(/secondary/);
    // The plans page stays, as a plain link carrying the item on.
    expect(screen.getByRole('link', { name: '料金プランを見る' })).toHaveAttribute(
      'href',
      `/service-plans?next=${encodeURIComponent('/posts/abc')}`,
    );
    expect(screen.getByRole('link', { name: 'ログイン' })).toBeInTheDocument();
  });

  it('a plan not on sale is not offered; a signed-in reader gets no ログイン', async () => {
    server.listPlans.mockResolvedValue([
      plan('monthly', '月額プラン', 1100),
      plan('yearly', '年額プラン', 11000, false),
    ]);
    render(await Paywall({ cta: subscribe(false), item: 'movie', returnTo: '/movies/m1' }));
    expect(screen.getAllByRole('link', { name: /で申し込む/ })).toHaveLength(1);
    expect(screen.getByRole('link', { name: '有料プランを見る' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'ログイン' })).toBeNull();
  });

  it('without the catalogue, the plans page still leads on', async () => {
    server.listPlans.mockRejectedValue(new Error('down'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    render(await Paywall({ cta: subscribe(true), item: 'post', returnTo: '/posts/abc' }));
    warn.mockRestore();
    expect(screen.queryByRole('list', { name: '有料プラン' })).toBeNull();
    expect(screen.getByRole('link', { name: '料金プランを見る' })).toBeInTheDocument();
  });

  it('a free-plan item keeps its one step: a free account', async () => {
    render(
      await Paywall({
        cta: { opensWith: 'sign-up', anonymous: true },
        item: 'post',
        returnTo: '/posts/abc',
      }),
    );
    expect(screen.getByRole('link', { name: '無料で会員登録' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /で申し込む/ })).toBeNull();
    expect(server.listPlans).not.toHaveBeenCalled();
  });
});

describe('the paywall names the trial where it holds for everyone its page is for', () => {
  beforeEach(() => {
    settings.trialDays = 14;
  });

  it('a visitor: the trial of the account the plan button makes, above the plans', async () => {
    render(await Paywall({ cta: subscribe(true), item: 'post', returnTo: '/posts/abc' }));
    expect(screen.getByText('最初の14日間は無料')).toBeInTheDocument();
  });

  it('a free member: the page is every free member’s, so the trial comes with its condition', async () => {
    render(await Paywall({ cta: subscribe(false), item: 'post', returnTo: '/posts/abc' }));
    expect(
      screen.getByText('初めて有料プランをお申し込みの方は、最初の14日間は無料'),
    ).toBeInTheDocument();
  });

  it('without a trial (BILLING_TRIAL_DAYS=0) nothing is promised', async () => {
    settings.trialDays = 0;
    render(await Paywall({ cta: subscribe(true), item: 'post', returnTo: '/posts/abc' }));
    expect(screen.queryByText(/日間は無料/)).toBeNull();
  });
});

describe('the paywall of a post sold singly', () => {
  it('offers 「この記事を購入（¥300）」 to its confirmation screen beside the plans', async () => {
    const cta = { opensWith: 'subscribe', anonymous: false, price: 300 } as const;
    render(await Paywall({ cta, item: 'post', returnTo: '/posts/abc', contentId: 'abc' }));
    expect(screen.getByRole('list', { name: '有料プラン' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'この記事を購入（¥300）' })).toHaveAttribute(
      'href',
      '/purchase/post/abc',
    );
  });

  it('offers no purchase for a post without a price', async () => {
    render(
      await Paywall({
        cta: subscribe(false),
        item: 'post',
        returnTo: '/posts/abc',
        contentId: 'abc',
      }),
    );
    expect(screen.queryByRole('link', { name: /この記事を購入/ })).toBeNull();
  });
});

describe('the metered wall’s line in the paywall (docs/decisions/055-metered-wall.md)', () => {
  const at = '/posts/abc';
  it('a visitor is told what a free account opens each month, with the sign-up', async () => {
    render(
      await Paywall({ cta: subscribe(true), item: 'post', returnTo: at, meter: { perMonth: 3 } }),
    );
    expect(
      screen.getByText('無料の会員登録で、会員限定の記事を毎月3本まで全文お読みいただけます。'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '無料で会員登録' })).toHaveAttribute(
      'href',
      expect.stringContaining(encodeURIComponent(at)),
    );
  });

  it('a free member with reads left: the count and 「全文を読む」 as a page load', async () => {
    render(
      await Paywall({
        cta: subscribe(false),
        item: 'post',
        returnTo: at,
        meter: { perMonth: 3, left: 2 },
      }),
    );
    expect(screen.getByText('今月あと2本読めます')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '全文を読む' })).toHaveAttribute('href', at);
  });

  it('used up: says so and when it comes back, offering no read', async () => {
    render(
      await Paywall({
        cta: subscribe(false),
        item: 'post',
        returnTo: at,
        meter: { perMonth: 3, left: 0 },
      }),
    );
    expect(
      screen.getByText(
        '今月の3本をすべて読みました。来月1日（日本時間）に3本読めるようになります。',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '全文を読む' })).toBeNull();
  });

  it('without the wall: not a word of it', async () => {
    render(await Paywall({ cta: subscribe(true), item: 'post', returnTo: at }));
    expect(screen.queryByText(/毎月.*本/)).toBeNull();
  });
});
