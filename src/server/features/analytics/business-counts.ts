import 'server-only';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '@/server/platform/db/client';
import { duplicateClaimKey } from '@/server/features/billing';
import {
  type Headline,
  lastMonths,
  type MonthFigures,
  monthlyRevenueAt,
  type OneTimeRecord,
  oneTimeRevenue,
  type PlanRecord,
} from './business-figures';

/**
 * The business report's figures counted in the database (docs/decisions/049-page-view-roll-up.md,
 * its amendment): the report once read every plan and every sign-up of its window into the
 * process to count them there (computeFigures, business-figures.ts, which stays the definition);
 * with 2,500 plans and 5,000 sign-ups, handing them to JavaScript cost more than the counting.
 * Here one statement counts them as computeFigures does and answers a few dozen numbers: per
 * month, new paying plans, churned ones, those paying at its end, sign-ups and the converted among
 * them; the trials; the plans paying now grouped by price and discounts (MRR is worked out from
 * them with monthlyRevenueAt, as before); and the sign-ups and plans of the window per item they
 * started from. The integration test checks every figure against computeFigures on the raw rows.
 *
 * Instants are cut to the millisecond as JavaScript's Date cuts them, so that a bound compares
 * the same on both sides.
 */

/** Statuses of a checkout that never started (its first payment failed and expired). */
const NEVER_STARTED = ['incomplete', 'incomplete_expired'];

type Counts = {
  months: {
    newPaying: number;
    churned: number;
    payingAtEnd: number;
    signUps: number;
    converted: number;
  }[];
  prices: (Pick<PlanRecord, 'amount' | 'interval' | 'intervalCount' | 'discounts'> & {
    n: number;
  })[];
  payingMembers: number;
  trials: number;
  signUpSources: [string, number][];
  planSources: [string, number][];
};

const at = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;
const ms = (column: SQL) => sql`date_trunc('milliseconds', ${column})`;

export type BusinessCounts = {
  headline: Headline;
  months: MonthFigures[];
  /** Per item (`endpoint/contentId`), the sign-ups and plans of the window that started there. */
  signUpsBySource: Map<string, number>;
  plansBySource: Map<string, number>;
};

export async function countBusiness(
  db: Db,
  options: { now: number; payments: readonly OneTimeRecord[] },
): Promise<BusinessCounts> {
  const { now, payments } = options;
  const months = lastMonths(now);
  const windowStart = months[0]!.start;
  const rows = months.map(
    ({ start, end }, i) =>
      sql`(${i}::int, ${at(start)}, ${at(end)}, ${at(Math.min(end, now + 1))}, ${at(Math.min(end - 1, now))})`,
  );
  const prefix = duplicateClaimKey('');
  const source = (endpoint: SQL, contentId: SQL) =>
    sql`case when coalesce(${endpoint}, '') <> '' and coalesce(${contentId}, '') <> ''
      then ${endpoint} || '/' || ${contentId} end`;
  const result = await db.execute(sql`
    with months (i, start, "end", cap, at) as (values ${sql.join(rows, sql`, `)}),
    -- the plans reversed at once, each named once: a hashed set, not a scan per plan
    reversed as (
      select substr(key, ${prefix.length + 1}) as id from billing_notifications
      where key like ${duplicateClaimKey('%')}
    ),
    first_paid as (
      select subscription_id, min(paid_at) as at from billing_invoices
      where status = 'paid' and total > 0 group by subscription_id
    ),
    plans as (
      select s.user_id, s.status, s.amount, s.interval, s.interval_count, s.discounts,
        ${ms(sql`s.created_at`)} as created_at, ${ms(sql`s.canceled_at`)} as ended_at,
        ${ms(sql`f.at`)} as first_paid_at,
        ${source(sql`s.source_endpoint`, sql`s.source_content_id`)} as source
      from subscriptions s left join first_paid f on f.subscription_id = s.id
      where s.provider = 'stripe'
        and s.status not in (${sql.join(
          NEVER_STARTED.map((status) => sql`${status}`),
          sql`, `,
        )})
        -- a reader's second plan reversed at once (one-plan.ts) is no plan of theirs
        and s.id not in (select id from reversed)
    ),
    sign_ups as (
      select ${ms(sql`u.created_at`)} as created_at,
        ${source(sql`p.source_endpoint`, sql`p.source_content_id`)} as source,
        -- converted: a plan of theirs was first paid by now (a set looked up, not a join: the
        -- planner, without statistics for a CTE, would loop over it for every sign-up)
        u.id in (select user_id from plans
          where user_id is not null and first_paid_at <= ${at(now)}) as converted
      from "user" u
        left join user_private_profiles p on p.user_id = u.id
      where u.role = 'member' and u.email_verified and u.created_at >= ${at(windowStart)}
    ),
    paying as (
      select * from plans
      where first_paid_at <= ${at(now)} and (ended_at is null or ended_at > ${at(now)})
    )
    select json_build_object(
      'months', (select json_agg(json_build_object(
        'newPaying', (select count(*) from plans
          where first_paid_at >= m.start and first_paid_at < m.cap),
        'churned', (select count(*) from plans
          where first_paid_at is not null and ended_at >= m.start and ended_at < m.cap),
        'payingAtEnd', (select count(*) from plans
          where first_paid_at <= m.at and (ended_at is null or ended_at > m.at)),
        'signUps', (select count(*) from sign_ups
          where created_at >= m.start and created_at < m."end"),
        'converted', (select count(*) from sign_ups
          where created_at >= m.start and created_at < m."end" and converted)
      ) order by m.i) from months m),
      'prices', (select coalesce(json_agg(json_build_object(
          'amount', amount, 'interval', interval, 'intervalCount', interval_count,
          'discounts', discounts, 'n', n)), '[]'::json)
        from (select amount, interval, interval_count, discounts, count(*) as n from paying
          group by amount, interval, interval_count, discounts) priced),
      'payingMembers', (select count(*) from paying),
      'trials', (select count(*) from plans where status = 'trialing' and ended_at is null),
      'signUpSources', (select coalesce(json_agg(json_build_array(source, n)), '[]'::json)
        from (select source, count(*) as n from sign_ups
          where source is not null and created_at <= ${at(now)} group by source) counted),
      'planSources', (select coalesce(json_agg(json_build_array(source, n)), '[]'::json)
        from (select source, count(*) as n from plans
          where source is not null and created_at >= ${at(windowStart)} and created_at <= ${at(now)}
          group by source) counted)
    ) as counts
  `);
  // Both drivers (PGlite, node-postgres) answer a raw statement with its rows.
  const counts = (result as { rows: { counts: Counts }[] }).rows[0]!.counts;

  const figures: MonthFigures[] = months.map(({ month, start, end }, i) => ({
    month,
    ...counts.months[i]!,
    oneTime: oneTimeRevenue(payments, start, Math.min(end, now + 1)),
  }));
  const signUps = figures.reduce((sum, m) => sum + m.signUps, 0);
  const converted = figures.reduce((sum, m) => sum + m.converted, 0);
  const mrr = counts.prices.reduce((sum, price) => sum + price.n * monthlyRevenueAt(price, now), 0);
  return {
    headline: {
      mrr: Math.round(mrr),
      payingMembers: counts.payingMembers,
      trials: counts.trials,
      conversion: { signUps, converted, rate: signUps === 0 ? null : converted / signUps },
      oneTime: figures.at(-1)!.oneTime,
    },
    months: figures,
    signUpsBySource: new Map(counts.signUpSources),
    plansBySource: new Map(counts.planSources),
  };
}
