import 'server-only';
import { z } from '@/lib/zod';
import type { Db } from '@/server/platform/db/client';
import { siteContent } from '@/server/features/content';
import {
  type ContentEndpoint,
  isContentEndpoint,
  pathForContent,
} from '@/server/features/attribution';
import { countTopContent, countViewsPerDay, type DayCount } from './page-views';
import { daysBetween, rollUpFinishedDays } from './roll-up';
import { addDays, japanDay } from './view-input';

/** What staff see at /admin/analytics: plain objects, the titles already looked up. */

export const REPORT_DAYS = 30;
export const TOP_CONTENT_LIMIT = 50;

export type TopContentRow = {
  endpoint: ContentEndpoint;
  contentId: string;
  /** The item's title (a category's name), or null when the content service does not have it. */
  title: string | null;
  href: string;
  views: number;
  /** Distinct visitors of each day, summed over the range (「のべ訪問者数」, decision 049). */
  visitors: number;
};

export type AnalyticsReport = {
  from: string;
  to: string;
  /** Every day of the range, oldest first, days without views as 0. */
  days: DayCount[];
  totalViews: number;
  top: TopContentRow[];
};

/** Every day from `from` to `to`, with the counts found or zeros. */
export function fillDays(from: string, to: string, counts: DayCount[]): DayCount[] {
  const byDay = new Map(counts.map((c) => [c.day, c]));
  return daysBetween(from, to).map((day) => byDay.get(day) ?? { day, views: 0, visitors: 0 });
}

/** Categories have a name where the other types have a title. */
const TITLE_FIELD: Record<ContentEndpoint, 'title' | 'name'> = {
  posts: 'title',
  audios: 'title',
  movies: 'title',
  connect: 'title',
  jobs: 'title',
  categories: 'name',
};

const titlesSchema = z.object({
  contents: z.array(
    z.object({ id: z.string(), title: z.string().optional(), name: z.string().optional() }),
  ),
});

export type TitleLookup = (
  endpoint: ContentEndpoint,
  ids: string[],
) => Promise<Map<string, string>>;

/** Titles of published items by id; an unreachable service or a missing item leaves a gap. */
export const lookUpTitles: TitleLookup = async (endpoint, ids) => {
  const field = TITLE_FIELD[endpoint];
  try {
    // get() with our own schema: a `fields`-narrowed list lacks the system fields getList checks.
    const answer = await siteContent().get({
      endpoint,
      queries: { ids, fields: `id,${field}`, limit: ids.length },
      schema: titlesSchema,
    });
    return new Map(
      answer.contents.flatMap((item) => {
        const title = item[field];
        return title ? [[item.id, title] as const] : [];
      }),
    );
  } catch (error) {
    console.error('[analytics] title lookup failed:', endpoint, error);
    return new Map();
  }
};

/** The titles of these items, looked up once per endpoint: a function from an item to its title. */
export async function titlesOf(
  items: readonly { endpoint: ContentEndpoint; contentId: string }[],
  lookup: TitleLookup = lookUpTitles,
): Promise<(item: { endpoint: ContentEndpoint; contentId: string }) => string | null> {
  const idsByEndpoint = new Map<ContentEndpoint, string[]>();
  for (const item of items) {
    idsByEndpoint.set(item.endpoint, [...(idsByEndpoint.get(item.endpoint) ?? []), item.contentId]);
  }
  const titles = new Map(
    await Promise.all(
      [...idsByEndpoint].map(
        async ([endpoint, ids]) => [endpoint, await lookup(endpoint, ids)] as const,
      ),
    ),
  );
  return (item) => titles.get(item.endpoint)?.get(item.contentId) ?? null;
}

export async function loadAnalyticsReport(
  db: Db,
  options: { now?: number; titles?: TitleLookup } = {},
): Promise<AnalyticsReport> {
  const to = japanDay(options.now ?? Date.now());
  const from = addDays(to, -(REPORT_DAYS - 1));
  await rollUpFinishedDays(db, { from, today: to });
  const [perDay, top] = await Promise.all([
    countViewsPerDay(db, { from, to }),
    countTopContent(db, { from, to, limit: TOP_CONTENT_LIMIT }),
  ]);
  const known = top.flatMap((row) =>
    isContentEndpoint(row.endpoint) ? [{ ...row, endpoint: row.endpoint }] : [],
  );

  const titles = await titlesOf(known, options.titles);

  const days = fillDays(from, to, perDay);
  return {
    from,
    to,
    days,
    totalViews: days.reduce((sum, d) => sum + d.views, 0),
    top: known.map((row) => ({
      endpoint: row.endpoint,
      contentId: row.contentId,
      title: titles(row),
      href: pathForContent(row),
      views: row.views,
      visitors: row.visitors,
    })),
  };
}
