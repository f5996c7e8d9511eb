import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, gte, min, notInArray, sql } from 'drizzle-orm';
import type { Database } from '@/server/platform/db/client';
import {
  billingInvoices,
  billingNotifications,
  subscriptions,
  user,
  userPrivateProfiles,
  userPublicProfiles,
  type SubscriptionDiscount,
} from '@/server/platform/db/schema';
import { duplicateClaimKey } from '@/server/features/billing';
import { createTestDatabase } from '@test-support/db/test-database';
import { mulberry32 } from '@test-support/seeded-random';
import {
  computeFigures,
  lastMonths,
  type OneTimeRecord,
  type PlanRecord,
} from './business-figures';
import { countBusiness } from './business-counts';

/**
 * The figures counted in the database against computeFigures (the definition) on the raw rows,
 * as the report read them before (docs/decisions/049-page-view-roll-up.md, its amendment): a
 * seeded history of plans of every status, paid and unpaid invoices, trial invoices of ¥0,
 * reversed second plans, discounts of each kind, sign-ups of readers, staff and unconfirmed
 * accounts, with instants on and around the months' edges in Japan and after `now`.
 */

const NOW = Date.parse('2026-11-20T05:00:00.000Z');
const DAY = 86_400_000;
const STATUSES = ['active', 'trialing', 'canceled', 'past_due', 'incomplete', 'incomplete_expired'];
const SOURCES = [null, 'posts/a', 'posts/b', 'jobs/c', '', 'posts/'];

let database: Database;

/** An instant of the 14 months up to a week after NOW, often a month's first instant ± 1 ms. */
function instant(random: () => number): Date {
  const months = lastMonths(NOW, 14);
  if (random() < 0.3) {
    const edge = months[Math.floor(random() * months.length)]!.start;
    return new Date(edge + [-1, 0, 1][Math.floor(random() * 3)]!);
  }
  if (random() < 0.05) return new Date(NOW + [-1, 0, 1][Math.floor(random() * 3)]!);
  return new Date(months[0]!.start + Math.floor(random() * (NOW + 7 * DAY - months[0]!.start)));
}

function discountsOf(random: () => number): SubscriptionDiscount[] {
  if (random() < 0.6) return [];
  const duration = (['once', 'repeating', 'forever'] as const)[Math.floor(random() * 3)]!;
  return [
    {
      coupon: `c${Math.floor(random() * 3)}`,
      percentOff: random() < 0.5 ? 15 : null,
      amountOff: 100,
      duration,
      durationInMonths: duration === 'repeating' ? 3 : null,
      start: new Date(NOW - 60 * DAY).toISOString(),
      end:
        duration === 'repeating'
          ? new Date(NOW + (random() < 0.5 ? -1 : 1) * DAY).toISOString()
          : null,
    },
  ];
}

beforeAll(async () => {
  database = await createTestDatabase();
  const random = mulberry32(49);
  const rows = {
    users: [] as (typeof user.$inferInsert)[],
    publicProfiles: [] as (typeof userPublicProfiles.$inferInsert)[],
    privateProfiles: [] as (typeof userPrivateProfiles.$inferInsert)[],
    plans: [] as (typeof subscriptions.$inferInsert)[],
    invoices: [] as (typeof billingInvoices.$inferInsert)[],
    reversals: [] as (typeof billingNotifications.$inferInsert)[],
  };
  for (let u = 0; u < 300; u++) {
    const id = `u${u}`;
    const source = SOURCES[Math.floor(random() * SOURCES.length)]!;
    const [endpoint, contentId] = source === null ? [null, null] : source.split('/');
    rows.users.push({
      id,
      name: id,
      email: `${id}@example.jp`,
      emailVerified: random() < 0.9,
      role: random() < 0.9 ? 'member' : 'editor',
      createdAt: instant(random),
    });
    rows.publicProfiles.push({ userId: id, displayName: id });
    rows.privateProfiles.push({
      userId: id,
      email: `${id}@example.jp`,
      sourceEndpoint: endpoint,
      sourceContentId: contentId,
    });
    for (let p = 0; p < Math.floor(random() * 3); p++) {
      const subscriptionId = `sub_${u}_${p}`;
      const createdAt = instant(random);
      const status = STATUSES[Math.floor(random() * STATUSES.length)]!;
      const planSource = SOURCES[Math.floor(random() * SOURCES.length)]!;
      const [planEndpoint, planContentId] =
        planSource === null ? [null, null] : planSource.split('/');
      rows.plans.push({
        id: subscriptionId,
        userId: random() < 0.95 ? id : null,
        provider: random() < 0.9 ? 'stripe' : 'complimentary',
        status,
        planName: '月額プラン',
        amount: random() < 0.95 ? [1100, 11000, 550][Math.floor(random() * 3)] : null,
        interval: random() < 0.5 ? 'month' : 'year',
        intervalCount: 1,
        discounts: discountsOf(random),
        canceledAt: status === 'canceled' || random() < 0.1 ? instant(random) : null,
        sourceEndpoint: planEndpoint,
        sourceContentId: planContentId,
        createdAt,
      });
      for (let i = 0; i < Math.floor(random() * 3); i++) {
        rows.invoices.push({
          id: `in_${u}_${p}_${i}`,
          customerId: 'cus_1',
          subscriptionId,
          status: random() < 0.8 ? 'paid' : 'open',
          currency: 'jpy',
          total: random() < 0.2 ? 0 : 1100,
          tax: 100,
          lines: [],
          paidAt: instant(random),
          createdAt,
        });
      }
      if (random() < 0.05) rows.reversals.push({ key: duplicateClaimKey(subscriptionId) });
    }
  }
  const { db } = database;
  await db.insert(user).values(rows.users);
  await db.insert(userPublicProfiles).values(rows.publicProfiles);
  await db.insert(userPrivateProfiles).values(rows.privateProfiles);
  await db.insert(subscriptions).values(rows.plans);
  await db.insert(billingInvoices).values(rows.invoices);
  await db.insert(billingNotifications).values(rows.reversals);
});
afterAll(async () => {
  await database.close();
});

/** The rows computeFigures is given, read plainly (the report's loaders before the amendment). */
async function rawRows() {
  const { db } = database;
  const windowStart = lastMonths(NOW)[0]!.start;
  const reversed = new Set(
    (await db.select({ key: billingNotifications.key }).from(billingNotifications)).map((row) =>
      row.key.slice(duplicateClaimKey('').length),
    ),
  );
  const firstPaid = db
    .select({ id: billingInvoices.subscriptionId, at: min(billingInvoices.paidAt).as('at') })
    .from(billingInvoices)
    .where(and(eq(billingInvoices.status, 'paid'), sql`${billingInvoices.total} > 0`))
    .groupBy(billingInvoices.subscriptionId)
    .as('first_paid');
  const plans = (
    await db
      .select({ plan: subscriptions, firstPaidAt: firstPaid.at })
      .from(subscriptions)
      .leftJoin(firstPaid, eq(firstPaid.id, subscriptions.id))
      .where(
        and(
          eq(subscriptions.provider, 'stripe'),
          notInArray(subscriptions.status, ['incomplete', 'incomplete_expired']),
        ),
      )
  )
    .filter(({ plan }) => !reversed.has(plan.id))
    .map(({ plan, firstPaidAt }) => ({
      id: plan.id,
      userId: plan.userId,
      status: plan.status,
      amount: plan.amount,
      interval: plan.interval,
      intervalCount: plan.intervalCount,
      discounts: plan.discounts,
      createdAt: plan.createdAt,
      endedAt: plan.canceledAt,
      firstPaidAt: firstPaidAt === null ? null : new Date(firstPaidAt),
      source:
        plan.sourceEndpoint && plan.sourceContentId
          ? `${plan.sourceEndpoint}/${plan.sourceContentId}`
          : null,
    })) satisfies (PlanRecord & { source: string | null })[];
  const signUps = (
    await db
      .select({ user, profile: userPrivateProfiles })
      .from(user)
      .leftJoin(userPrivateProfiles, eq(userPrivateProfiles.userId, user.id))
      .where(
        and(
          eq(user.role, 'member'),
          eq(user.emailVerified, true),
          gte(user.createdAt, new Date(windowStart)),
        ),
      )
  ).map(({ user: row, profile }) => ({
    userId: row.id,
    createdAt: row.createdAt,
    source:
      profile?.sourceEndpoint && profile.sourceContentId
        ? `${profile.sourceEndpoint}/${profile.sourceContentId}`
        : null,
  }));
  return { plans, signUps, windowStart };
}

/** Counts of `source` among the rows created in [windowStart, NOW]. */
function bySource(rows: { source: string | null; createdAt: Date }[], windowStart: number) {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const at = row.createdAt.getTime();
    if (row.source && at >= windowStart && at <= NOW)
      counts.set(row.source, (counts.get(row.source) ?? 0) + 1);
  }
  return counts;
}

describe('countBusiness', () => {
  it('gives the figures computeFigures gives on the raw rows', async () => {
    const payments: OneTimeRecord[] = [
      { kind: 'post', amount: 300, paidAt: new Date(NOW - DAY) },
      { kind: 'tip', amount: 500, paidAt: new Date(NOW - 40 * DAY) },
    ];
    const { plans, signUps, windowStart } = await rawRows();
    // The history has something in every figure, so that a figure always 0 is not passed.
    const expected = computeFigures(plans, signUps, NOW, payments);
    expect(expected.headline.payingMembers).toBeGreaterThan(0);
    expect(expected.headline.trials).toBeGreaterThan(0);
    expect(expected.headline.conversion.converted).toBeGreaterThan(0);
    expect(expected.months.some((m) => m.churned > 0)).toBe(true);

    const counted = await countBusiness(database.db, { now: NOW, payments });
    expect(counted.headline).toEqual(expected.headline);
    expect(counted.months).toEqual(expected.months);
    expect(counted.signUpsBySource).toEqual(bySource(signUps, windowStart));
    expect(counted.plansBySource).toEqual(bySource(plans, windowStart));
  });
});
