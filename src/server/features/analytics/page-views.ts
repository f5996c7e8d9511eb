import 'server-only';
import { and, asc, count, countDistinct, desc, gte, isNotNull, lte } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { pageViews } from '@/server/platform/db/schema';

/** Queries of the page_views table (src/server/platform/db/schema.ts); the rules live in view-endpoint.ts. */

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

/** Views and distinct visitors per day in [from, to] (YYYY-MM-DD, Japan), days with views only. */
export async function countViewsPerDay(db: Db, range: DayRange): Promise<DayCount[]> {
  const rows = await db
    .select({
      day: pageViews.day,
      views: count(),
      visitors: countDistinct(pageViews.visitorId),
    })
    .from(pageViews)
    .where(and(gte(pageViews.day, range.from), lte(pageViews.day, range.to)))
    .groupBy(pageViews.day)
    .orderBy(asc(pageViews.day));
  return rows.map((row) => ({ day: row.day, views: row.views, visitors: row.visitors }));
}

export type ContentCount = {
  endpoint: string;
  contentId: string;
  views: number;
  visitors: number;
};

/** The most viewed content items in [from, to]: most views first, ties by visitors, then id. */
export async function countTopContent(
  db: Db,
  range: DayRange & { limit: number },
): Promise<ContentCount[]> {
  const views = count();
  const visitors = countDistinct(pageViews.visitorId);
  const rows = await db
    .select({ endpoint: pageViews.endpoint, contentId: pageViews.contentId, views, visitors })
    .from(pageViews)
    .where(
      and(
        gte(pageViews.day, range.from),
        lte(pageViews.day, range.to),
        isNotNull(pageViews.endpoint),
        isNotNull(pageViews.contentId),
      ),
    )
    .groupBy(pageViews.endpoint, pageViews.contentId)
    .orderBy(desc(views), desc(visitors), asc(pageViews.endpoint), asc(pageViews.contentId))
    .limit(range.limit);
  return rows.flatMap((row) =>
    row.endpoint && row.contentId
      ? [
          {
            endpoint: row.endpoint,
            contentId: row.contentId,
            views: row.views,
            visitors: row.visitors,
          },
        ]
      : [],
  );
}
