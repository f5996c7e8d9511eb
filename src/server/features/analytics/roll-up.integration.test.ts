import { inArray, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { testDatabase } from '@test-support/route-tests';
import { findEndpoint } from '@/lib/cms/model';
import { queryRows } from '@/server/platform/db/client';
import { pageViewDays, pageViewMonths, pageViews } from '@/server/platform/db/schema';
import { CLIENT_IP_HEADER } from '@/server/platform/http/request-origin';
import { renameContent } from '@/server/services/cms/rename';
import { createContent } from '@/server/services/cms/writes';
import { loadBusinessReport } from './business-report';
import { insertPageView } from './page-views';
import { loadAnalyticsReport } from './report';
import { daysBetween, monthsWithin, rollUpFinishedDays } from './roll-up';
import { handleViewBeacon } from './view-endpoint';
import { addDays } from './view-input';

/**
 * The daily roll-up (docs/decisions/049-page-view-roll-up.md) against the raw rows: whatever has
 * been rolled up, rolled up twice, lost or changed afterwards, the report says what page_views
 * say. The figures expected are counted here straight from page_views, in SQL of their own.
 */

const database = testDatabase();
const TODAY = '2026-05-10';
/** 15:00 in Japan on TODAY. */
const NOW = Date.parse(`${TODAY}T15:00:00+09:00`);
const noTitles = (_endpoint: string, ids: string[]) =>
  Promise.resolve(new Map(ids.map((id) => [id, `記事 ${id}`])));
const ITEMS = ['posts/p1', 'posts/p2', 'posts/p3', 'movies/m1', 'jobs/j1'];
const AUDIENCES = ['anonymous', 'member', 'paid', 'staff'];

/** A view of `path` by `visitor` on `day` (YYYY-MM-DD, Japan) at noon. */
function view(day: string, path: string, visitor: string, k = 0) {
  const [endpoint = null, contentId = null] = path === '/' ? [] : path.split('/');
  return {
    occurredAt: new Date(`${day}T12:00:00+09:00`),
    day,
    path: path === '/' ? '/' : `/${path}`,
    endpoint,
    contentId,
    referrer: null,
    visitorId: visitor,
    audience: AUDIENCES[k % 4]!,
    paywall: k % 3 === 0,
  };
}

/** 40 days up to `today`, a few views each, some by the same visitor on several days. */
async function seedViews(today = TODAY) {
  const rows = [];
  for (let d = 0; d < 40; d++) {
    const day = addDays(today, -d);
    for (let k = 0; k < ((d * 7) % 5) + 2; k++) {
      const path = k === 0 ? '/' : ITEMS[(d + k) % ITEMS.length]!;
      rows.push(view(day, path, `visitor-${(d + k * 3) % 6}`, d + k));
    }
  }
  await database.db.insert(pageViews).values(rows);
}

/** Per day in [from, to]: views and distinct visitors, counted from page_views. */
const rawDays = (from: string, to: string) =>
  queryRows<{ day: string; views: number; visitors: number }>(
    database.db,
    sql`SELECT day, count(*)::int AS views, count(DISTINCT visitor_id)::int AS visitors
        FROM page_views WHERE day BETWEEN ${from} AND ${to} GROUP BY day ORDER BY day`,
  );

/** Per item in [from, to]: views, visitor-days, members' and paywall views, from page_views. */
const rawItems = (from: string, to: string) =>
  queryRows<{
    endpoint: string;
    contentId: string;
    views: number;
    visitors: number;
    memberViews: number;
    paywallViews: number;
  }>(
    database.db,
    sql`SELECT endpoint, content_id AS "contentId", count(*)::int AS views,
          (SELECT count(*)::int FROM (SELECT DISTINCT day, visitor_id FROM page_views p
            WHERE p.endpoint = v.endpoint AND p.content_id = v.content_id
              AND p.day BETWEEN ${from} AND ${to}) d) AS visitors,
          (count(*) FILTER (WHERE audience IN ('member', 'paid')))::int AS "memberViews",
          (count(*) FILTER (WHERE paywall))::int AS "paywallViews"
        FROM page_views v WHERE endpoint IS NOT NULL AND day BETWEEN ${from} AND ${to}
        GROUP BY endpoint, content_id ORDER BY endpoint, content_id`,
  );

const rolledUp = async () =>
  (await database.db.select({ day: pageViewDays.day }).from(pageViewDays)).map((r) => r.day).sort();
const rolledUpMonths = async () =>
  (await database.db.select({ month: pageViewMonths.month }).from(pageViewMonths))
    .map((r) => r.month)
    .sort();

const byItem = <T extends { endpoint: string; contentId: string }>(rows: T[]) =>
  [...rows].sort((a, b) =>
    `${a.endpoint}/${a.contentId}` < `${b.endpoint}/${b.contentId}` ? -1 : 1,
  );

/** The 30-day report, checked against page_views. */
async function expectReportAgreesWithRawRows(now = NOW) {
  const report = await loadAnalyticsReport(database.db, { now, titles: noTitles });
  const raw = new Map((await rawDays(report.from, report.to)).map((d) => [d.day, d]));
  expect(report.days).toEqual(
    report.days.map(({ day }) => raw.get(day) ?? { day, views: 0, visitors: 0 }),
  );
  const items = await rawItems(report.from, report.to);
  expect(
    byItem(report.top).map(({ endpoint, contentId, views, visitors }) => ({
      endpoint,
      contentId,
      views,
      visitors,
    })),
  ).toEqual(
    items.map(({ endpoint, contentId, views, visitors }) => ({
      endpoint,
      contentId,
      views,
      visitors,
    })),
  );
  return report;
}

/** The business report's views per item over its window, checked against page_views. */
async function expectBusinessReportAgreesWithRawRows(now = NOW) {
  const report = await loadBusinessReport(database.db, { now, titles: noTitles, sort: 'views' });
  expect(
    byItem(report.posts).map(({ endpoint, contentId, views, memberViews, paywallViews }) => ({
      endpoint,
      contentId,
      views,
      memberViews,
      paywallViews,
    })),
  ).toEqual(
    (await rawItems(report.from, report.to)).map(
      ({ endpoint, contentId, views, memberViews, paywallViews }) => ({
        endpoint,
        contentId,
        views,
        memberViews,
        paywallViews,
      }),
    ),
  );
  return report;
}

beforeEach(async () => {
  await database.db.delete(pageViews);
  await database.db.delete(pageViewDays);
  await database.db.delete(pageViewMonths);
  await seedViews();
});

describe('the daily roll-up of page views', () => {
  it('reads finished days from the roll-up and today from the views, and agrees with them', async () => {
    await expectReportAgreesWithRawRows();
    // Every finished day of the report's 30 is rolled up, today is not.
    const days = await rolledUp();
    expect(days).toEqual(daysBetween('2026-04-11', addDays(TODAY, -1)));

    // Views of today show at once.
    await insertPageView(database.db, view(TODAY, 'posts/p3', 'visitor-new', 1));
    await insertPageView(database.db, view(TODAY, 'posts/p3', 'visitor-new', 2));
    const report = await expectReportAgreesWithRawRows();
    expect(report.days.at(-1)).toEqual((await rawDays(TODAY, TODAY))[0]);
    expect(await rolledUp()).toEqual(days);
  });

  it('counts a view recorded late for a finished day', async () => {
    await expectReportAgreesWithRawRows();
    const yesterday = addDays(TODAY, -1);
    const before = await rawDays(yesterday, yesterday);
    // A server whose clock is behind still records yesterday, after the roll-up of it.
    const response = await handleViewBeacon(
      new Request('http://localhost:3000/api/analytics/view', {
        method: 'POST',
        headers: {
          host: 'localhost:3000',
          origin: 'http://localhost:3000',
          'content-type': 'text/plain;charset=UTF-8',
          [CLIENT_IP_HEADER]: '198.51.100.7',
          'user-agent':
            'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
        },
        body: JSON.stringify({
          path: '/posts/p2',
          visitorId: '44444444-4444-4444-8444-444444444444',
        }),
      }),
      { db: database.db, now: () => Date.parse(`${yesterday}T23:59:59+09:00`) },
    );
    expect(response.status).toBe(204);
    expect(await rawDays(yesterday, yesterday)).not.toEqual(before);
    expect(await rolledUp()).not.toContain(yesterday);

    const report = await expectReportAgreesWithRawRows();
    expect(report.days.at(-2)).toEqual((await rawDays(yesterday, yesterday))[0]);
    // Counted again, with it.
    expect(await rolledUp()).toContain(yesterday);
  });

  it('counts each day once: rolled up twice at once, again, and again after days were lost', async () => {
    const range = { from: addDays(TODAY, -45), today: TODAY };
    const [first, second] = await Promise.all([
      rollUpFinishedDays(database.db, range),
      rollUpFinishedDays(database.db, range),
    ]);
    expect([...first, ...second].sort()).toEqual((await rolledUp()).sort());
    expect(first.length + second.length).toBe(45);
    expect(await rollUpFinishedDays(database.db, range)).toEqual([]);
    await expectReportAgreesWithRawRows();

    // A day's roll-up missing (lost, or never made while the site was down): made again.
    const lost = [addDays(TODAY, -3), addDays(TODAY, -20)];
    await database.db.delete(pageViewDays).where(inArray(pageViewDays.day, lost));
    await expectReportAgreesWithRawRows();
    expect(await rolledUp()).toEqual(expect.arrayContaining(lost));
  });

  it('gives the business report the views of the window: rolled-up months, days and today', async () => {
    // Part of the window rolled up before, the rest by the report.
    await rollUpFinishedDays(database.db, { from: addDays(TODAY, -10), today: TODAY });
    const report = await expectBusinessReportAgreesWithRawRows();
    expect(report.from).toBe('2025-06-01');
    expect(await rolledUp()).toEqual(daysBetween('2025-06-01', addDays(TODAY, -1)));
    // Every finished month of the window is summed; May, this month, is not.
    expect(await rolledUpMonths()).toEqual(monthsWithin('2025-06-01', '2026-04-30'));
    expect(await rolledUpMonths()).toHaveLength(11);

    // A view recorded late in a finished month: that day and that month are counted again.
    await insertPageView(database.db, view('2026-04-15', 'posts/p2', 'visitor-late', 2));
    expect(await rolledUp()).not.toContain('2026-04-15');
    expect(await rolledUpMonths()).not.toContain('2026-04');
    await expectBusinessReportAgreesWithRawRows();
    expect(await rolledUpMonths()).toContain('2026-04');
  });

  it('reads a whole finished month inside the 30 days from its sum', async () => {
    await database.db.delete(pageViews);
    // 30 days up to 1 March 2027 hold all of February.
    await seedViews('2027-03-01');
    const now = Date.parse('2027-03-01T15:00:00+09:00');
    await expectReportAgreesWithRawRows(now);
    expect(await rolledUpMonths()).toEqual(['2027-02']);
    await expectReportAgreesWithRawRows(now);
  });

  it('moves the views of a renamed item to its new id, rolled-up days too', async () => {
    await createContent(database.db, findEndpoint('posts')!, {
      id: 'p1',
      body: { title: '改名される記事' },
      status: 'publish',
    });
    const before = await expectReportAgreesWithRawRows();
    const p1 = before.top.find((row) => row.contentId === 'p1')!;
    await renameContent(database.db, findEndpoint('posts')!, 'p1', 'p1-renamed', {
      actor: 'user:editor',
    });
    const after = await expectReportAgreesWithRawRows();
    expect(after.top.find((row) => row.contentId === 'p1')).toBeUndefined();
    expect(after.top.find((row) => row.contentId === 'p1-renamed')).toMatchObject({
      views: p1.views,
      visitors: p1.visitors,
    });
  });
});
