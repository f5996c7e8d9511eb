import 'server-only';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '@/server/platform/db/client';

/**
 * What metered reads led to (docs/decisions/055-metered-wall.md), per post: how often it was
 * opened as a metered read since `since`, by how many free members, and how many plans were
 * taken after one. A plan counts once, for the last metered read its reader made in the 30
 * days before it (the window of the paywall's own attribution, PATH_START_SECONDS), so no plan
 * is counted for two posts. A plan is a provider's subscription that started (as the business
 * report counts them): not a gift period, not a checkout whose first payment never came.
 */
export type MeteredConversion = {
  contentId: string;
  reads: number;
  readers: number;
  subscriptions: number;
};

const WINDOW = sql.raw(`interval '30 days'`);

export async function meteredConversions(
  db: Db,
  options: { since: Date },
): Promise<MeteredConversion[]> {
  const since = options.since.toISOString();
  const rows = await queryRows<{
    content_id: string;
    reads: number | string;
    readers: number | string;
    subscriptions: number | string;
  }>(
    db,
    sql`
    with reads as (
      select content_id, count(*) as reads, count(distinct user_id) as readers
      from metered_reads where read_at >= ${since}
      group by content_id
    ),
    touched as (
      select distinct on (s.id) s.id, r.content_id
      from subscriptions s
      join metered_reads r on r.user_id = s.user_id
        and r.read_at <= s.created_at and r.read_at > s.created_at - ${WINDOW}
      where s.created_at >= ${since} and s.provider = 'stripe'
        and s.status not in ('incomplete', 'incomplete_expired')
      order by s.id, r.read_at desc
    ),
    taken as (select content_id, count(*) as subscriptions from touched group by content_id)
    select reads.content_id, reads.reads, reads.readers, coalesce(taken.subscriptions, 0) as subscriptions
    from reads left join taken using (content_id)
    order by taken.subscriptions desc nulls last, reads.reads desc, reads.content_id
  `,
  );
  return rows.map((row) => ({
    contentId: row.content_id,
    reads: Number(row.reads),
    readers: Number(row.readers),
    subscriptions: Number(row.subscriptions),
  }));
}
