import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { paidPaymentsSince } from '@/server/features/purchases';
import { meteredConversions } from '@/server/features/metered';
import { organizationRevenue } from '@/server/features/organizations';
import { type Headline, lastMonths, type MonthFigures } from './business-figures';
import { countBusiness } from './business-counts';
import {
  type ContentEndpoint,
  isContentEndpoint,
  pathForContent,
} from '@/server/features/attribution';
import { countItemViews } from './page-views';
import { type TitleLookup, titlesOf } from './report';
import { rollUpFinishedDays } from './roll-up';
import { japanDay } from './view-input';

/**
 * The business report of /admin/analytics: MRR, one-time revenue (single articles, tips, gift
 * subscriptions), paying members, trials, new and churned per month, free → paid conversion
 * (business-figures.ts), and per item the views, members' views, paywall views, sign-ups and
 * subscriptions that started from it, its purchases and tips, and its metered reads and the
 * plans taken after them, over the last 12 months.
 * Read from the site's own records only: the billing records and the purchases ledger the
 * webhooks keep in step with the provider, the sign-ups and the first-party page views.
 */

export type PostRow = {
  endpoint: ContentEndpoint;
  contentId: string;
  title: string | null;
  href: string;
  views: number;
  memberViews: number;
  paywallViews: number;
  signUps: number;
  subscriptions: number;
  /** Single-article purchases of it, and tips for it, paid in the window (not refunded). */
  purchases: number;
  tips: number;
  /** What those purchases and tips came to, in yen with tax. */
  oneTimeRevenue: number;
  /**
   * Free members' metered reads of it, and the plans taken within 30 days after a reader's last
   * one (docs/decisions/055-metered-wall.md).
   */
  meteredReads: number;
  meteredSubscriptions: number;
};

export const POST_SORTS = [
  'views',
  'memberViews',
  'paywallViews',
  'signUps',
  'subscriptions',
  'purchases',
  'tips',
  'meteredReads',
  'meteredSubscriptions',
] as const;
export type PostSort = (typeof POST_SORTS)[number];

/** At most this many items in the per-item table (the CSV has the same rows). */
export const POST_LIMIT = 100;

export type BusinessReport = {
  /** The first day of the window (YYYY-MM-DD, Japan) and today. */
  from: string;
  to: string;
  headline: Headline;
  months: MonthFigures[];
  posts: PostRow[];
  /**
   * 法人プラン, apart from the individual plans above: organisations, seats bought and used, and
   * their MRR, each seat at its plan's monthly price (docs/decisions/058-organizations.md).
   */
  organizations: Awaited<ReturnType<typeof organizationRevenue>>;
};

const inWindow = (date: Date, start: number, now: number) =>
  date.getTime() >= start && date.getTime() <= now;

export async function loadBusinessReport(
  db: Db,
  options: { now?: number; titles?: TitleLookup; sort?: PostSort } = {},
): Promise<BusinessReport> {
  const now = options.now ?? Date.now();
  const windowStart = lastMonths(now)[0]!.start;
  const from = japanDay(windowStart);
  const to = japanDay(now);
  await rollUpFinishedDays(db, { from, today: to });
  const [views, payments, metered, organizations] = await Promise.all([
    countItemViews(db, { from, to }),
    paidPaymentsSince(db, new Date(windowStart)),
    meteredConversions(db, { since: new Date(windowStart) }),
    organizationRevenue(db),
  ]);
  const { headline, months, signUpsBySource, plansBySource } = await countBusiness(db, {
    now,
    payments,
  });

  const rows = new Map<string, Omit<PostRow, 'title' | 'href'>>();
  const rowOf = (key: string) => {
    const [endpoint = '', contentId = ''] = key.split('/');
    if (!isContentEndpoint(endpoint)) return null;
    let row = rows.get(key);
    if (!row) {
      row = {
        endpoint,
        contentId,
        views: 0,
        memberViews: 0,
        paywallViews: 0,
        signUps: 0,
        subscriptions: 0,
        purchases: 0,
        tips: 0,
        oneTimeRevenue: 0,
        meteredReads: 0,
        meteredSubscriptions: 0,
      };
      rows.set(key, row);
    }
    return row;
  };
  for (const view of views) {
    const row = rowOf(`${view.endpoint}/${view.contentId}`);
    if (!row) continue;
    row.views = view.views;
    row.memberViews = view.memberViews;
    row.paywallViews = view.paywallViews;
  }
  for (const [source, count] of signUpsBySource) {
    const row = rowOf(source);
    if (row) row.signUps = count;
  }
  for (const [source, count] of plansBySource) {
    const row = rowOf(source);
    if (row) row.subscriptions = count;
  }

  for (const payment of payments) {
    if (payment.kind === 'gift-plan' || !payment.endpoint || !payment.contentId) continue;
    if (!inWindow(payment.paidAt, windowStart, now)) continue;
    const row = rowOf(`${payment.endpoint}/${payment.contentId}`);
    if (!row) continue;
    if (payment.kind === 'post') row.purchases += 1;
    else row.tips += 1;
    row.oneTimeRevenue += payment.amount;
  }

  for (const item of metered) {
    const row = rowOf(`posts/${item.contentId}`);
    if (!row) continue;
    row.meteredReads = item.reads;
    row.meteredSubscriptions = item.subscriptions;
  }

  const sort = options.sort ?? 'subscriptions';
  const ranked = [...rows.values()]
    .sort(
      (a, b) =>
        b[sort] - a[sort] ||
        b.subscriptions - a.subscriptions ||
        b.views - a.views ||
        `${a.endpoint}/${a.contentId}`.localeCompare(`${b.endpoint}/${b.contentId}`),
    )
    .slice(0, POST_LIMIT);

  const titles = await titlesOf(ranked, options.titles);
  return {
    from,
    to,
    headline,
    months,
    organizations,
    posts: ranked.map((row) => ({
      ...row,
      title: titles(row),
      href: pathForContent(row),
    })),
  };
}
