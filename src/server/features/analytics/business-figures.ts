import 'server-only';
import { JAPAN_OFFSET_MS, japanClock } from '@/lib/format';
import type { SubscriptionDiscount } from '@/server/platform/db/schema';

/**
 * The business figures, computed from the site's billing records (subscriptions and invoices as
 * synced from the provider's webhooks, billing/records.ts) and its sign-ups. Pure: the loader
 * (business-report.ts) reads the rows; this decides what they mean. Every definition is in
 * docs/decisions (the business report) and README.md; the sandbox test
 * (business-report.integration.test.ts) checks them against a history fed through the provider.
 */

/** A provider subscription as the report needs it. */
export type PlanRecord = {
  id: string;
  userId: string | null;
  status: string;
  /** Yen, tax included, per `intervalCount` × `interval`. */
  amount: number | null;
  interval: string | null;
  intervalCount: number | null;
  /** The provider's discounts on it (an offer's coupon), as the webhook's sync stored them. */
  discounts: readonly SubscriptionDiscount[];
  createdAt: Date;
  /** When the provider ended it (`ended_at`), or null while it runs. */
  endedAt: Date | null;
  /** Its first paid invoice with a total above zero (a trial's ¥0 invoice is not a payment). */
  firstPaidAt: Date | null;
};

export type SignUpRecord = { userId: string; createdAt: Date };

/**
 * A one-time payment as the report needs it: a paid row of the purchases ledger
 * (docs/decisions/053-one-time-payments.md). A refunded one is not revenue and is not given.
 */
export type OneTimeRecord = { kind: 'post' | 'tip' | 'gift-plan'; amount: number; paidAt: Date };

/** One-time revenue in yen, tax included, by kind: single articles, tips, gift subscriptions. */
export type OneTimeRevenue = { posts: number; tips: number; gifts: number };

const KIND_FIELD: Record<OneTimeRecord['kind'], keyof OneTimeRevenue> = {
  post: 'posts',
  tip: 'tips',
  'gift-plan': 'gifts',
};

/** The payments paid in [start, end), summed by kind. */
export function oneTimeRevenue(
  payments: readonly OneTimeRecord[],
  start: number,
  end: number,
): OneTimeRevenue {
  const sum: OneTimeRevenue = { posts: 0, tips: 0, gifts: 0 };
  for (const payment of payments) {
    const at = payment.paidAt.getTime();
    if (at >= start && at < end) sum[KIND_FIELD[payment.kind]] += payment.amount;
  }
  return sum;
}

export type MonthFigures = {
  /** YYYY-MM, in Japan. */
  month: string;
  /** Subscriptions whose first payment fell in the month. */
  newPaying: number;
  /** Paying subscriptions that ended in the month. */
  churned: number;
  /** Paying subscriptions at the end of the month (or now, for this month). */
  payingAtEnd: number;
  /** Accounts created in the month. */
  signUps: number;
  /** Of those, the accounts that have paid since (by the report's time). */
  converted: number;
  /** One-time payments paid in the month (and not refunded since). */
  oneTime: OneTimeRevenue;
};

export type Headline = {
  /**
   * Monthly recurring revenue: yen a month, tax included, after the discounts that recur,
   * rounded once at the end.
   */
  mrr: number;
  payingMembers: number;
  trials: number;
  /** Sign-ups of the last 12 months, how many of them paid since, and the share (0–1, or null). */
  conversion: { signUps: number; converted: number; rate: number | null };
  /** One-time revenue of this month (Japan) so far, beside MRR. */
  oneTime: OneTimeRevenue;
};

export const REPORT_MONTHS = 12;

/** YYYY-MM of an instant in Japan. */
export function japanMonth(at: Date | number): string {
  return japanClock(at).slice(0, 7);
}

/** The first instant of a month in Japan (YYYY-MM, months may run past 12 or below 1). */
export function monthStart(year: number, monthIndex: number): number {
  return Date.UTC(year, monthIndex, 1) - JAPAN_OFFSET_MS;
}

/** The last `count` months in Japan up to the one `now` is in, oldest first. */
export function lastMonths(
  now: number,
  count = REPORT_MONTHS,
): { month: string; start: number; end: number }[] {
  const [year, month] = japanMonth(now).split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const index = month - 1 - (count - 1 - i);
    const start = monthStart(year, index);
    return { month: japanMonth(start), start, end: monthStart(year, index + 1) };
  });
}

/** Months in one period of the price: a year is 12, a week 12/52, a day 12/365. */
const MONTHS_PER: Record<string, number> = { month: 1, year: 12, week: 12 / 52, day: 12 / 365 };

/** A plan's monthly equivalent in yen (unrounded); 0 when its price is unknown. */
export function monthlyEquivalent(
  plan: Pick<PlanRecord, 'amount' | 'interval' | 'intervalCount'>,
): number {
  const months = plan.interval ? MONTHS_PER[plan.interval] : undefined;
  if (!plan.amount || !months) return 0;
  return plan.amount / (months * (plan.intervalCount ?? 1));
}

/**
 * Whether a discount lowers recurring revenue at `at`: a `forever` one always, a `repeating`
 * one until its end (the provider discounts the invoices made before it), a `once` one never —
 * it takes something off one charge only, so the revenue that recurs is the price (Stripe
 * Billing's MRR with "subtract recurring discounts").
 */
export function discountRecursAt(discount: SubscriptionDiscount, at: number): boolean {
  if (Date.parse(discount.start) > at) return false;
  if (discount.duration === 'forever') return true;
  if (discount.duration === 'repeating')
    return discount.end !== null && at < Date.parse(discount.end);
  return false;
}

/**
 * One charge of the plan at `at`, in yen, after the discounts that still recur: percent off
 * rounded to the yen and amount off at most the charge, each on what the one before left, as
 * the provider counts an invoice's line.
 */
export function chargeAt(plan: Pick<PlanRecord, 'amount' | 'discounts'>, at: number): number {
  let charge = plan.amount ?? 0;
  for (const discount of plan.discounts) {
    if (!discountRecursAt(discount, at)) continue;
    const off =
      discount.percentOff !== null
        ? Math.round((charge * discount.percentOff) / 100)
        : Math.min(discount.amountOff ?? 0, charge);
    charge -= off;
  }
  return charge;
}

/** A plan's monthly revenue at `at`: its charge after recurring discounts, per month. */
export function monthlyRevenueAt(
  plan: Pick<PlanRecord, 'amount' | 'interval' | 'intervalCount' | 'discounts'>,
  at: number,
): number {
  return monthlyEquivalent({ ...plan, amount: chargeAt(plan, at) });
}

/** Paying at `at`: it had been paid for by then and had not ended. */
export function payingAt(plan: PlanRecord, at: number): boolean {
  return (
    plan.firstPaidAt !== null &&
    plan.firstPaidAt.getTime() <= at &&
    (plan.endedAt === null || plan.endedAt.getTime() > at)
  );
}

const within = (date: Date | null, start: number, end: number) =>
  date !== null && date.getTime() >= start && date.getTime() < end;

/** The headline and the last 12 months, as of `now`. */
export function computeFigures(
  plans: readonly PlanRecord[],
  signUps: readonly SignUpRecord[],
  now: number,
  payments: readonly OneTimeRecord[] = [],
): { headline: Headline; months: MonthFigures[] } {
  const paying = plans.filter((plan) => payingAt(plan, now));
  // A reader converts once, however many plans they held: their first payment counts.
  const firstPaidByUser = new Map<string, number>();
  for (const plan of plans) {
    if (!plan.userId || !plan.firstPaidAt) continue;
    const at = plan.firstPaidAt.getTime();
    const known = firstPaidByUser.get(plan.userId);
    if (known === undefined || at < known) firstPaidByUser.set(plan.userId, at);
  }
  const convertedBy = (signUp: SignUpRecord) => {
    const paid = firstPaidByUser.get(signUp.userId);
    return paid !== undefined && paid <= now;
  };

  const months = lastMonths(now).map(({ month, start, end }) => {
    const signedUp = signUps.filter((s) => within(s.createdAt, start, end));
    return {
      month,
      newPaying: plans.filter((p) => within(p.firstPaidAt, start, Math.min(end, now + 1))).length,
      churned: plans.filter(
        (p) => p.firstPaidAt !== null && within(p.endedAt, start, Math.min(end, now + 1)),
      ).length,
      payingAtEnd: plans.filter((p) => payingAt(p, Math.min(end - 1, now))).length,
      signUps: signedUp.length,
      converted: signedUp.filter(convertedBy).length,
      oneTime: oneTimeRevenue(payments, start, Math.min(end, now + 1)),
    };
  });
  const signUpsInWindow = months.reduce((sum, m) => sum + m.signUps, 0);
  const converted = months.reduce((sum, m) => sum + m.converted, 0);
  return {
    headline: {
      mrr: Math.round(paying.reduce((sum, plan) => sum + monthlyRevenueAt(plan, now), 0)),
      payingMembers: paying.length,
      trials: plans.filter((p) => p.status === 'trialing' && p.endedAt === null).length,
      conversion: {
        signUps: signUpsInWindow,
        converted,
        rate: signUpsInWindow === 0 ? null : converted / signUpsInWindow,
      },
      oneTime: months.at(-1)!.oneTime,
    },
    months,
  };
}
