import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

/**
 * First-party page views (src/server/features/analytics): no cookie, an anonymous id the browser keeps
 * in localStorage. One row per view; staff read views per item and per day at /admin/analytics.
 */
export const pageViews = pgTable(
  'page_views',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
    /** The day in Japan (YYYY-MM-DD), for per-day counts. */
    day: text('day').notNull(),
    path: text('path').notNull(),
    /** The content endpoint and id the page shows, when it shows one. */
    endpoint: text('endpoint'),
    contentId: text('content_id'),
    referrer: text('referrer'),
    visitorId: text('visitor_id').notNull(),
    /** Who viewed, as the server found from the session: anonymous, member, paid or staff. */
    audience: text('audience'),
    /** The page showed this viewer the item's paywall (checked on the server, view-endpoint.ts). */
    paywall: boolean('paywall').notNull().default(false),
  },
  (t) => [
    // By day, and the report's distinct visitors per day read from it in order, without a sort
    // (measured on 20,000 views in 30 days: 390 ms → 94).
    index('page_views_day_visitor_idx').on(t.day, t.visitorId),
    index('page_views_content_idx').on(t.endpoint, t.contentId, t.day),
  ],
);

/**
 * The roll-up of finished days (docs/decisions/049-page-view-roll-up.md,
 * src/server/features/analytics/roll-up.ts): a row per day in Japan whose page views have been
 * counted, with that day's views and distinct visitors. A day without a row is read from
 * page_views. The migration's trigger on page_views deletes the row of every day whose views
 * change afterwards (a late view, a renamed item), and its month's, so that they are counted
 * again.
 */
export const pageViewDays = pgTable('page_view_days', {
  day: text('day').primaryKey(),
  views: integer('views').notNull(),
  visitors: integer('visitors').notNull(),
  rolledUpAt: timestamp('rolled_up_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Per rolled-up day and content item: views, distinct visitors, members' and paywall views. */
export const pageViewItemDays = pgTable(
  'page_view_item_days',
  {
    day: text('day')
      .notNull()
      .references(() => pageViewDays.day, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    contentId: text('content_id').notNull(),
    views: integer('views').notNull(),
    visitors: integer('visitors').notNull(),
    memberViews: integer('member_views').notNull(),
    paywallViews: integer('paywall_views').notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.endpoint, t.contentId] })],
);

/**
 * A finished month whose days are all rolled up, summed once from page_view_item_days: the
 * business report's twelve months read twelve rows per item rather than a year of days.
 */
export const pageViewMonths = pgTable('page_view_months', {
  /** YYYY-MM, in Japan. */
  month: text('month').primaryKey(),
  rolledUpAt: timestamp('rolled_up_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Per rolled-up month and content item: the sums of its days (visitors: each day's, summed). */
export const pageViewItemMonths = pgTable(
  'page_view_item_months',
  {
    month: text('month')
      .notNull()
      .references(() => pageViewMonths.month, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    contentId: text('content_id').notNull(),
    views: integer('views').notNull(),
    visitors: integer('visitors').notNull(),
    memberViews: integer('member_views').notNull(),
    paywallViews: integer('paywall_views').notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.endpoint, t.contentId] })],
);
