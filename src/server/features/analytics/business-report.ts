import 'server-only';
import { and, eq, gte, like, min, notInArray, sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import {
  billingInvoices,
  billingNotifications,
  subscriptions,
  user,
  userPrivateProfiles,
} from '@/server/platform/db/schema';
import { duplicateClaimKey } from '@/server/features/billing';
import { paidPaymentsSince } from '@/server/features/purchases';
import { meteredConversions } from '@/server/features/metered';
import { organizationRevenue } from '@/server/features/organizations';
import {
  computeFigures,
  type Headline,
  lastMonths,
  type MonthFigures,
  type PlanRecord,
} from './business-figures';
import {
  type ContentEndpoint,
  isContentEndpoint,
  pathForContent,
} from '@/server/features/attribution';
import { jsonRows } from './json-rows';
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

/** A plan as its JSON row has it (json-rows.ts): the times as ISO text. */
type PlanJson = Omit<PlanRecord, 'createdAt' | 'endedAt' | 'firstPaidAt'> & {
  createdAt: string;
  endedAt: string | null;
  firstPaidAt: string | null;
  sourceEndpoint: string | null;
  sourceContentId: string | null;
};

/** Statuses of a checkout that never started (its first payment failed and expired). */
const NEVER_STARTED = ['incomplete', 'incomplete_expired'];

/** The provider's plans, but a reader's second plan reversed at once (one-plan.ts). */
async function loadPlans(db: Db): Promise<(PlanRecord & { source: string | null })[]> {
  const reversed = await db
    .select({ key: billingNotifications.key })
    .from(billingNotifications)
    .where(like(billingNotifications.key, duplicateClaimKey('%')));
  const reversedIds = new Set(reversed.map((row) => row.key.slice(duplicateClaimKey('').length)));
  const firstPaid = db
    .select({
      subscriptionId: billingInvoices.subscriptionId,
      at: min(billingInvoices.paidAt).as('first_paid_at'),
    })
    .from(billingInvoices)
    .where(and(eq(billingInvoices.status, 'paid'), sql`${billingInvoices.total} > 0`))
    .groupBy(billingInvoices.subscriptionId)
    .as('first_paid');
  const [found] = await db
    .select({
      plans: jsonRows<PlanJson>({
        id: subscriptions.id,
        userId: subscriptions.userId,
        status: subscriptions.status,
        amount: subscriptions.amount,
        interval: subscriptions.interval,
        intervalCount: subscriptions.intervalCount,
        discounts: subscriptions.discounts,
        createdAt: subscriptions.createdAt,
        endedAt: subscriptions.canceledAt,
        firstPaidAt: firstPaid.at,
        sourceEndpoint: subscriptions.sourceEndpoint,
        sourceContentId: subscriptions.sourceContentId,
      }),
    })
    .from(subscriptions)
    .leftJoin(firstPaid, eq(firstPaid.subscriptionId, subscriptions.id))
    .where(
      and(eq(subscriptions.provider, 'stripe'), notInArray(subscriptions.status, NEVER_STARTED)),
    );
  return (found?.plans ?? [])
    .filter((row) => !reversedIds.has(row.id))
    .map(({ sourceEndpoint, sourceContentId, createdAt, endedAt, firstPaidAt, ...row }) => ({
      ...row,
      createdAt: new Date(createdAt),
      endedAt: endedAt === null ? null : new Date(endedAt),
      firstPaidAt: firstPaidAt === null ? null : new Date(firstPaidAt),
      source: sourceEndpoint && sourceContentId ? `${sourceEndpoint}/${sourceContentId}` : null,
    }));
}

/**
 * Readers' confirmed accounts (staff are not sign-ups) created since `since`, the window's start
 * (nothing in the report counts an earlier one), with where their path started.
 */
async function loadSignUps(db: Db, since: number) {
  const [found] = await db
    .select({
      signUps: jsonRows<{
        userId: string;
        createdAt: string;
        sourceEndpoint: string | null;
        sourceContentId: string | null;
      }>({
        userId: user.id,
        createdAt: user.createdAt,
        sourceEndpoint: userPrivateProfiles.sourceEndpoint,
        sourceContentId: userPrivateProfiles.sourceContentId,
      }),
    })
    .from(user)
    .leftJoin(userPrivateProfiles, eq(userPrivateProfiles.userId, user.id))
    .where(
      and(
        eq(user.role, 'member'),
        eq(user.emailVerified, true),
        gte(user.createdAt, new Date(since)),
      ),
    );
  return (found?.signUps ?? []).map(({ sourceEndpoint, sourceContentId, createdAt, userId }) => ({
    userId,
    createdAt: new Date(createdAt),
    source: sourceEndpoint && sourceContentId ? `${sourceEndpoint}/${sourceContentId}` : null,
  }));
}

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
  const [plans, signUps, views, payments, metered, organizations] = await Promise.all([
    loadPlans(db),
    loadSignUps(db, windowStart),
    countItemViews(db, { from, to }),
    paidPaymentsSince(db, new Date(windowStart)),
    meteredConversions(db, { since: new Date(windowStart) }),
    organizationRevenue(db),
  ]);
  const { headline, months } = computeFigures(plans, signUps, now, payments);

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
  for (const signUp of signUps) {
    if (signUp.source && inWindow(signUp.createdAt, windowStart, now)) {
      const row = rowOf(signUp.source);
      if (row) row.signUps += 1;
    }
  }
  for (const plan of plans) {
    if (plan.source && inWindow(plan.createdAt, windowStart, now)) {
      const row = rowOf(plan.source);
      if (row) row.subscriptions += 1;
    }
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
