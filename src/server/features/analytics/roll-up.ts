import 'server-only';
import { and, asc, count, countDistinct, gte, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Db, queryRows } from '@/server/platform/db/client';
import {
  pageViewDays,
  pageViewItemDays,
  pageViewItemMonths,
  pageViewMonths,
  pageViews,
} from '@/server/platform/db/schema';
import { addDays } from './view-input';

/**
 * The daily roll-up of page views (docs/decisions/049-page-view-roll-up.md). Each finished day
 * (before today in Japan) is counted once into page_view_days (its views and distinct visitors)
 * and page_view_item_days (the same per content item, with members' and paywall views); each
 * finished month whose days are all counted is summed once more into page_view_months and
 * page_view_item_months. The report reads those, and reads today, and any day not rolled up,
 * from page_views (page-views.ts). The roll-up is only a shortcut: a day or a month without it
 * is still counted right.
 *
 * Once per day across every instance: a roll-up holds the advisory lock below exclusively and
 * counts only the days still missing once it holds it. The trigger of the migration
 * (drizzle/0028_page_view_roll_up.sql) takes the same lock shared whenever page_views change,
 * and deletes the roll-up of every day whose views changed (a view recorded late by a slow
 * clock or request, a renamed item), which the next report counts again.
 */

/** The lock's key; the migration's trigger names the same one. */
const ROLL_UP_LOCK = sql`hashtext('page_view_days')`;

/** Days rolled up in one transaction: a first roll-up of a year holds the views' inserts briefly. */
const BATCH_DAYS = 31;

/** Every day from `from` to `to` (YYYY-MM-DD), oldest first. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The days of [from, to] (YYYY-MM-DD) without a roll-up, oldest first (only those come back). */
export async function daysNotRolledUp(db: Db, from: string, to: string): Promise<string[]> {
  const rows = await queryRows<{ day: string }>(
    db,
    sql`SELECT to_char(d, 'YYYY-MM-DD') AS day
        FROM generate_series(${from}::date, ${to}::date, interval '1 day') AS d
        WHERE NOT EXISTS (SELECT 1 FROM ${pageViewDays}
          WHERE ${pageViewDays.day} = to_char(d, 'YYYY-MM-DD'))
        ORDER BY d`,
  );
  return rows.map((row) => row.day);
}

/** The sum of an integer column, as a number. */
export const total = (column: AnyPgColumn) => sql<number>`sum(${column})::int`.mapWith(Number);

const nextMonth = (month: string) => addDays(`${month}-28`, 7).slice(0, 7);
const lastDayOf = (month: string) => addDays(`${nextMonth(month)}-01`, -1);

/** The months (YYYY-MM) that lie wholly inside [from, to], oldest first. */
export function monthsWithin(from: string, to: string): string[] {
  const months: string[] = [];
  let month = from.endsWith('-01') ? from.slice(0, 7) : nextMonth(from.slice(0, 7));
  for (; lastDayOf(month) <= to; month = nextMonth(month)) months.push(month);
  return months;
}

/** The spans of days of [from, to] outside these months (YYYY-MM, ascending), oldest first. */
export function spansOutside(
  range: { from: string; to: string },
  months: string[],
): { from: string; to: string }[] {
  const spans: { from: string; to: string }[] = [];
  let from = range.from;
  for (const month of months) {
    if (from < `${month}-01`) spans.push({ from, to: addDays(`${month}-01`, -1) });
    from = addDays(lastDayOf(month), 1);
  }
  if (from <= range.to) spans.push({ from, to: range.to });
  return spans;
}

/** The months wholly inside [from, to] that are rolled up, oldest first. */
export async function rolledUpMonths(db: Db, from: string, to: string): Promise<string[]> {
  const rows = await db
    .select({ month: pageViewMonths.month })
    .from(pageViewMonths)
    .where(inArray(pageViewMonths.month, monthsWithin(from, to)))
    .orderBy(asc(pageViewMonths.month));
  return rows.map((row) => row.month);
}

/** Counts these days (those no other roll-up has counted meanwhile); the days it counted. */
async function rollUpDays(db: Db, days: string[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ROLL_UP_LOCK})`);
    const done = await tx
      .select({ day: pageViewDays.day })
      .from(pageViewDays)
      .where(inArray(pageViewDays.day, days));
    const doneDays = new Set(done.map((row) => row.day));
    const todo = days.filter((day) => !doneDays.has(day));
    if (todo.length === 0) return [];
    await tx.insert(pageViewDays).select(
      tx
        .select({
          day: pageViews.day,
          views: count().as('views'),
          visitors: countDistinct(pageViews.visitorId).as('visitors'),
          rolledUpAt: sql<Date>`now()`.as('rolled_up_at'),
        })
        .from(pageViews)
        .where(inArray(pageViews.day, todo))
        .groupBy(pageViews.day),
    );
    // Days without a view are rolled up too, so that they are not looked at again.
    await tx
      .insert(pageViewDays)
      .values(todo.map((day) => ({ day, views: 0, visitors: 0 })))
      .onConflictDoNothing();
    await tx.insert(pageViewItemDays).select(
      tx
        .select({
          day: pageViews.day,
          endpoint: sql<string>`${pageViews.endpoint}`.as('endpoint'),
          contentId: sql<string>`${pageViews.contentId}`.as('content_id'),
          views: count().as('views'),
          visitors: countDistinct(pageViews.visitorId).as('visitors'),
          memberViews:
            sql<number>`count(*) filter (where ${pageViews.audience} in ('member', 'paid'))`.as(
              'member_views',
            ),
          paywallViews: sql<number>`count(*) filter (where ${pageViews.paywall})`.as(
            'paywall_views',
          ),
        })
        .from(pageViews)
        .where(
          and(
            inArray(pageViews.day, todo),
            isNotNull(pageViews.endpoint),
            isNotNull(pageViews.contentId),
          ),
        )
        .groupBy(pageViews.day, pageViews.endpoint, pageViews.contentId),
    );
    return todo;
  });
}

/**
 * Sums these finished months from their days, those whose days are all rolled up and that no
 * other roll-up has summed meanwhile.
 */
async function rollUpMonths(db: Db, months: string[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${ROLL_UP_LOCK})`);
    const done = new Set(await rolledUpMonths(tx, `${months[0]!}-01`, lastDayOf(months.at(-1)!)));
    const days = await tx
      .select({ month: sql<string>`left(${pageViewDays.day}, 7)`, days: count() })
      .from(pageViewDays)
      .where(
        and(
          gte(pageViewDays.day, `${months[0]!}-01`),
          lte(pageViewDays.day, lastDayOf(months.at(-1)!)),
        ),
      )
      .groupBy(sql`left(${pageViewDays.day}, 7)`);
    const counted = new Map(days.map((row) => [row.month, row.days]));
    const todo = months.filter(
      (month) =>
        !done.has(month) &&
        counted.get(month) === daysBetween(`${month}-01`, lastDayOf(month)).length,
    );
    if (todo.length === 0) return;
    await tx.insert(pageViewMonths).values(todo.map((month) => ({ month })));
    const month = sql<string>`left(${pageViewItemDays.day}, 7)`;
    await tx.insert(pageViewItemMonths).select(
      tx
        .select({
          month: month.as('month'),
          endpoint: pageViewItemDays.endpoint,
          contentId: pageViewItemDays.contentId,
          views: total(pageViewItemDays.views).as('views'),
          visitors: total(pageViewItemDays.visitors).as('visitors'),
          memberViews: total(pageViewItemDays.memberViews).as('member_views'),
          paywallViews: total(pageViewItemDays.paywallViews).as('paywall_views'),
        })
        .from(pageViewItemDays)
        .where(inArray(month, todo))
        .groupBy(month, pageViewItemDays.endpoint, pageViewItemDays.contentId),
    );
  });
}

/**
 * Rolls up every finished day from `from` to the day before `today` that has no roll-up yet,
 * oldest first, then every month of them whose days are all rolled up; the days it counted. A failure is logged, not thrown: the report then reads
 * those days from page_views.
 */
export async function rollUpFinishedDays(
  db: Db,
  range: { from: string; today: string },
): Promise<string[]> {
  const to = addDays(range.today, -1);
  if (to < range.from) return [];
  try {
    const missing = await daysNotRolledUp(db, range.from, to);
    const counted: string[] = [];
    for (let i = 0; i < missing.length; i += BATCH_DAYS)
      counted.push(...(await rollUpDays(db, missing.slice(i, i + BATCH_DAYS))));
    const months = monthsWithin(range.from, to);
    const summed = new Set(await rolledUpMonths(db, range.from, to));
    const unsummed = months.filter((month) => !summed.has(month));
    if (unsummed.length > 0) await rollUpMonths(db, unsummed);
    // A first roll-up fills the tables: the planner's statistics with them, which PGlite has no
    // autovacuum to refresh until the next start (src/server/boot.ts).
    if (counted.length >= BATCH_DAYS)
      await db.execute(
        sql`ANALYZE ${pageViewDays}, ${pageViewItemDays}, ${pageViewMonths}, ${pageViewItemMonths}`,
      );
    return counted;
  } catch (error) {
    console.error('[analytics] roll-up of finished days failed:', error);
    return [];
  }
}
