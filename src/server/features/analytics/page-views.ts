import 'server-only';
import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  gte,
  inArray,
  isNotNull,
  lte,
  or,
  sql,
} from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import {
  pageViewDays,
  pageViewItemDays,
  pageViewItemMonths,
  pageViews,
} from '@/server/platform/db/schema';
import { jsonRows } from './json-rows';
import { daysNotRolledUp, rolledUpMonths, spansOutside, total } from './roll-up';

/**
 * Queries of the page_views table and its daily roll-up (src/server/platform/db/schema.ts,
 * roll-up.ts); the rules of recording live in view-endpoint.ts. Each count reads the days that
 * are rolled up from the roll-up and every other day (today, a day not rolled up yet) from
 * page_views, in one snapshot, so a roll-up made meanwhile is neither missed nor counted twice.
 */

export type NewPageView = {
  occurredAt: Date;
  day: string;
  path: string;
  endpoint: string | null;
  contentId: string | null;
  referrer: string | null;
  visitorId: string;
  /** anonymous, member, paid or staff, as the server found; null when not known. */
  audience?: string | null;
  /** The page showed this viewer the item's paywall. */
  paywall?: boolean;
};

export async function insertPageView(db: Db, view: NewPageView): Promise<void> {
  await db.insert(pageViews).values(view);
}

export type DayRange = { from: string; to: string };
export type DayCount = { day: string; views: number; visitors: number };

/** Runs the reads of one count in one read-only snapshot. */
function inOneSnapshot<T>(db: Db, read: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => read(tx), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
}

/** Views and distinct visitors per day in [from, to] (YYYY-MM-DD, Japan), days with views only. */
export function countViewsPerDay(db: Db, range: DayRange): Promise<DayCount[]> {
  return inOneSnapshot(db, async (tx) => {
    const open = await daysNotRolledUp(tx, range.from, range.to);
    const rolled = await tx
      .select({ day: pageViewDays.day, views: pageViewDays.views, visitors: pageViewDays.visitors })
      .from(pageViewDays)
      .where(and(gte(pageViewDays.day, range.from), lte(pageViewDays.day, range.to)));
    const live = await tx
      .select({ day: pageViews.day, views: count(), visitors: countDistinct(pageViews.visitorId) })
      .from(pageViews)
      .where(inArray(pageViews.day, open))
      .groupBy(pageViews.day);
    return [...rolled, ...live]
      .filter((row) => row.views > 0)
      .map((row) => ({ day: row.day, views: row.views, visitors: row.visitors }))
      .sort((a, b) => (a.day < b.day ? -1 : 1));
  });
}

export type ItemCount = {
  endpoint: string;
  contentId: string;
  views: number;
  /** Distinct visitors of each day, summed over the days (docs/decisions/049-page-view-roll-up.md). */
  visitors: number;
  /** Views by a signed-in member, free or paid. */
  memberViews: number;
  /** Views whose page showed the paywall (the server agreed). */
  paywallViews: number;
};

const countWhere = (condition: ReturnType<typeof sql>) =>
  sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

/**
 * The counts of each content item in each part of the range with a view, to be summed per item:
 * rolled-up months wholly inside it from page_view_item_months, the other rolled-up days from
 * page_view_item_days, the rest day by day from page_views.
 */
async function itemDays(tx: Db, range: DayRange) {
  const open = await daysNotRolledUp(tx, range.from, range.to);
  const months = await rolledUpMonths(tx, range.from, range.to);
  const byMonth = tx
    .select({
      endpoint: pageViewItemMonths.endpoint,
      contentId: pageViewItemMonths.contentId,
      views: pageViewItemMonths.views,
      visitors: pageViewItemMonths.visitors,
      memberViews: pageViewItemMonths.memberViews,
      paywallViews: pageViewItemMonths.paywallViews,
    })
    .from(pageViewItemMonths)
    .where(inArray(pageViewItemMonths.month, months));
  // Only rolled-up days have rows here (page_view_item_days refers to page_view_days).
  const byDay = tx
    .select({
      endpoint: pageViewItemDays.endpoint,
      contentId: pageViewItemDays.contentId,
      views: pageViewItemDays.views,
      visitors: pageViewItemDays.visitors,
      memberViews: pageViewItemDays.memberViews,
      paywallViews: pageViewItemDays.paywallViews,
    })
    .from(pageViewItemDays)
    .where(
      or(
        sql`false`,
        ...spansOutside(range, months).map((span) =>
          and(gte(pageViewItemDays.day, span.from), lte(pageViewItemDays.day, span.to)),
        ),
      ),
    );
  const live = tx
    .select({
      endpoint: sql<string>`${pageViews.endpoint}`.as('endpoint'),
      contentId: sql<string>`${pageViews.contentId}`.as('content_id'),
      views: count().as('views'),
      visitors: countDistinct(pageViews.visitorId).as('visitors'),
      memberViews: countWhere(sql`${pageViews.audience} in ('member', 'paid')`).as('member_views'),
      paywallViews: countWhere(sql`${pageViews.paywall}`).as('paywall_views'),
    })
    .from(pageViews)
    .where(
      and(
        inArray(pageViews.day, open),
        isNotNull(pageViews.endpoint),
        isNotNull(pageViews.contentId),
      ),
    )
    // Per day: a visitor counts once a day, as in the roll-up, and the days add up.
    .groupBy(pageViews.day, pageViews.endpoint, pageViews.contentId);
  return byMonth.unionAll(byDay).unionAll(live).as('days');
}

/** Per content item with a view in [from, to]: its counts, in no particular order. */
export function countItemViews(db: Db, range: DayRange): Promise<ItemCount[]> {
  return inOneSnapshot(db, async (tx) => {
    const days = await itemDays(tx, range);
    const items = tx
      .select({
        endpoint: days.endpoint,
        contentId: days.contentId,
        views: total(days.views).as('views'),
        visitors: total(days.visitors).as('visitors'),
        memberViews: total(days.memberViews).as('member_views'),
        paywallViews: total(days.paywallViews).as('paywall_views'),
      })
      .from(days)
      .groupBy(days.endpoint, days.contentId)
      .as('items');
    // Every item of a year: one JSON text, not a row each (json-rows.ts).
    const [found] = await tx
      .select({
        items: jsonRows<ItemCount>({
          endpoint: items.endpoint,
          contentId: items.contentId,
          views: items.views,
          visitors: items.visitors,
          memberViews: items.memberViews,
          paywallViews: items.paywallViews,
        }),
      })
      .from(items);
    return found?.items ?? [];
  });
}

export type ContentCount = {
  endpoint: string;
  contentId: string;
  views: number;
  /** Distinct visitors of each day, summed over the days (docs/decisions/049-page-view-roll-up.md). */
  visitors: number;
};

/** The most viewed content items in [from, to]: most views first, ties by visitors, then id. */
export function countTopContent(
  db: Db,
  range: DayRange & { limit: number },
): Promise<ContentCount[]> {
  return inOneSnapshot(db, async (tx) => {
    const days = await itemDays(tx, range);
    const views = total(days.views);
    const visitors = total(days.visitors);
    return tx
      .select({ endpoint: days.endpoint, contentId: days.contentId, views, visitors })
      .from(days)
      .groupBy(days.endpoint, days.contentId)
      .orderBy(desc(views), desc(visitors), asc(days.endpoint), asc(days.contentId))
      .limit(range.limit);
  });
}
