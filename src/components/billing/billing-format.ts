import { formatDateJa, formatPlanPrice, formatYen } from '@/lib/format';
import { subscriptionStateLabel } from '@/lib/subscription-labels';

/**
 * The words and numbers of the billing screens (plans, the final confirmation screen, receipts),
 * on both sides: plain data in, Japanese text out, dates in Japan time. The screens take plain
 * objects (ISO strings for dates), never the server's records.
 */

export type PlanInterval = 'month' | 'year';

/** A plan of the catalogue as the screens show it. */
export type PlanView = {
  key: 'monthly' | 'yearly';
  name: string;
  /** Yen, tax included. */
  amount: number;
  interval: PlanInterval;
  intervalCount: number;
  active: boolean;
  /** The provider's product (an offer may apply to some products only). */
  productId?: string;
};

/** The reader's live plan (active, trialing or past_due). */
export type CurrentPlanView = {
  /** `gift`: months given by someone (docs/decisions/054-gift-subscriptions.md). */
  provider: 'stripe' | 'complimentary' | 'gift';
  planName: string;
  planKey: 'monthly' | 'yearly' | null;
  status: string;
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: string | null;
  trialEnd: string | null;
};

/**
 * What the customer-portal button says when the portal cannot be opened: SPEC §8 swallows the
 * error, which we treat as a defect (docs/decisions/000-design-baseline.md).
 */
export const PORTAL_ERROR_MESSAGE =
  'プランの管理画面を開けませんでした。時間をおいてもう一度お試しください。';

export const PAST_DUE_MESSAGE =
  'カードでのお支払いができませんでした。カード情報を更新してください。更新すると自動で再決済されます。';

/** The standard consumption-tax rate (%) of everything sold here; nothing is at the reduced 8 %. */
export const CONSUMPTION_TAX_RATE = 10;

/**
 * The consumption tax inside a tax-inclusive yen amount at 10 %, rounded down once per
 * amount (the rounding a qualified invoice allows: once per invoice and rate). ¥1,100 → ¥100.
 */
export function includedTax(total: number): number {
  if (!Number.isFinite(total) || total <= 0) return 0;
  return Math.floor((total * CONSUMPTION_TAX_RATE) / (100 + CONSUMPTION_TAX_RATE));
}

/** The length of one period: "月", "年", "3か月", "2年" (for "／月", "1か月ごと"). */
export function periodUnit(interval: PlanInterval, count = 1): string {
  if (count <= 1) return interval === 'month' ? '月' : '年';
  return interval === 'month' ? `${count}か月` : `${count}年`;
}

/** The contract term: "1か月", "1年", "3か月". */
export function contractTerm(interval: PlanInterval, count = 1): string {
  const n = Math.max(1, count);
  return interval === 'month' ? `${n}か月` : `${n}年`;
}

/** How often it renews and is charged: "毎月", "毎年", "3か月ごと". */
export function renewalEvery(interval: PlanInterval, count = 1): string {
  if (count <= 1) return interval === 'month' ? '毎月' : '毎年';
  return `${contractTerm(interval, count)}ごと`;
}

/** "¥1,100（税込）／月" (formatPlanPrice), and "／3か月" for longer periods. */
export function planPrice(plan: Pick<PlanView, 'amount' | 'interval' | 'intervalCount'>): string {
  if (plan.intervalCount <= 1) return formatPlanPrice(plan.amount, plan.interval);
  return `${formatYen(plan.amount)}（税込）／${periodUnit(plan.interval, plan.intervalCount)}`;
}

/** Months in one period of a plan. */
const monthsOf = (plan: Pick<PlanView, 'interval' | 'intervalCount'>) =>
  (plan.interval === 'year' ? 12 : 1) * Math.max(1, plan.intervalCount);

/** What a longer plan costs per month, rounded to the yen (null for a one-month plan). */
export function monthlyEquivalent(
  plan: Pick<PlanView, 'amount' | 'interval' | 'intervalCount'>,
): number | null {
  const months = monthsOf(plan);
  return months > 1 ? Math.round(plan.amount / months) : null;
}

/**
 * How much a longer plan saves against paying the monthly plan for as many months
 * (0 when it saves nothing, or when there is no one-month plan to compare with).
 */
export function savingAgainstMonthly(
  plan: Pick<PlanView, 'amount' | 'interval' | 'intervalCount'>,
  monthly: Pick<PlanView, 'amount' | 'interval' | 'intervalCount'> | undefined,
): number {
  if (!monthly || monthsOf(monthly) !== 1) return 0;
  const months = monthsOf(plan);
  if (months <= 1) return 0;
  return Math.max(0, monthly.amount * months - plan.amount);
}

/**
 * The plan the plans page recommends (its one primary button): of the plans on sale, the one
 * that costs least a month (the yearly plan when it saves against the monthly); the first on
 * sale when none does.
 */
export function recommendedPlanKey(plans: readonly PlanView[]): PlanView['key'] | null {
  const onSale = plans.filter((plan) => plan.active);
  const perMonth = (plan: PlanView) => plan.amount / Math.max(1, monthsOf(plan));
  const best = onSale.reduce<PlanView | null>(
    (found, plan) => (found === null || perMonth(plan) < perMonth(found) ? plan : found),
    null,
  );
  return best?.key ?? null;
}

/** `days` whole days after `from` (the provider's trial end: the same time, days later). */
export function addDays(from: Date, days: number): Date {
  return new Date(from.getTime() + days * 86_400_000);
}

const monthDayFormat = new Intl.DateTimeFormat('ja-JP', {
  month: 'long',
  day: 'numeric',
  timeZone: 'Asia/Tokyo',
});

/** "6月14日" in Japan time ('' for no date). */
export function formatMonthDayJa(value: string | Date | null | undefined): string {
  if (!value) return '';
  const date = typeof value === 'string' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? '' : monthDayFormat.format(date);
}

/** "2026年6月14日" in Japan time ('' for no date). */
export function formatDate(value: string | Date | null | undefined): string {
  return value ? formatDateJa(value) : '';
}

/**
 * The status of a live plan in words, the portal's words (src/lib/subscription-labels.ts):
 * 有効 / 無料体験中（2026年6月14日まで） / お支払いが確認できません / 解約予定（…まで利用できます）.
 */
export function planStatusLabel(
  plan: Pick<CurrentPlanView, 'status' | 'trialEnd' | 'currentPeriodEnd'> & {
    cancelAtPeriodEnd?: boolean;
    provider?: CurrentPlanView['provider'];
  },
): string {
  // A gift is not a plan the reader cancelled: it simply ends.
  if (plan.provider === 'gift' && plan.currentPeriodEnd) {
    return `ギフトで利用中・${formatDate(plan.currentPeriodEnd)}まで`;
  }
  return subscriptionStateLabel({
    status: plan.status,
    cancelAtPeriodEnd: plan.cancelAtPeriodEnd ?? false,
    endsAt: planEndsOn(plan),
    trialEnd: plan.trialEnd ?? plan.currentPeriodEnd,
  });
}

/** The last day a plan set to end can be used (its paid period or its trial). */
export function planEndsOn(
  plan: Pick<CurrentPlanView, 'status' | 'trialEnd' | 'currentPeriodEnd'>,
): string | null {
  return plan.status === 'trialing'
    ? (plan.trialEnd ?? plan.currentPeriodEnd)
    : (plan.currentPeriodEnd ?? plan.trialEnd);
}

/**
 * The line of a plan about what happens next: the renewal date, or, for a plan cancelled at its
 * period end, plainly that it ends (SPEC §4 isCanceledAtPeriodEnd). Complimentary plans: their
 * term.
 */
export function planRenewalLine(plan: CurrentPlanView): string | null {
  const end = planEndsOn(plan);
  if (plan.provider === 'gift')
    return '自動更新されません（ギフトの期間の終了後に請求されることはありません）';
  if (plan.provider === 'complimentary') {
    return end ? `ご利用期限 ${formatDate(end)}` : 'ご利用期限 なし';
  }
  // Unpaid: the provider has already moved the period on, but nothing renews until the card
  // is fixed (the page says so in its alert), so no date is promised.
  if (plan.status === 'past_due') return null;
  if (plan.cancelAtPeriodEnd) {
    // The status line says 解約予定 with the last day; this line says what happens then.
    return end ? `${formatDate(end)}で終了（自動更新されません）` : '自動更新されません';
  }
  return plan.currentPeriodEnd ? `次回更新日 ${formatDate(plan.currentPeriodEnd)}` : null;
}

/** The login page, coming back to the confirmation screen of a plan (src/lib/safe-next.ts). */

/**
 * A receipt line in Japanese. The provider writes its lines in English
 * ("1 × メンバーシップ 月額プラン (at ¥1,100 / month)", "Trial period for …",
 * "Unused time on … after …", "Remaining time on … after …"): the plan's name is kept and the
 * rest said in Japanese; anything else is shown as written.
 */
export function receiptLineLabel(description: string): string {
  const text = description.trim();
  let match = /^(\d+) × (.+?)(?: \(at .*\))?$/.exec(text);
  if (match?.[1] && match[2]) {
    const quantity = Number(match[1]);
    return quantity > 1 ? `${match[2]} × ${quantity}` : match[2];
  }
  match = /^Trial period for (.+)$/.exec(text);
  if (match?.[1]) return `${match[1]}（無料体験）`;
  match = /^Unused time on (.+?) after .+$/.exec(text);
  if (match?.[1]) return `${match[1]}（変更前のプランの未使用期間分）`;
  match = /^Remaining time on (.+?) after .+$/.exec(text);
  if (match?.[1]) return `${match[1]}（変更後のプランの残り期間分）`;
  return text || 'ご利用料金';
}

/**
 * The service period of a line: "2026年6月1日〜2026年6月30日". The provider's period ends at
 * the moment the next one starts, so the last day shown is the day before that moment.
 */
export function servicePeriod(
  start: string | Date | null,
  end: string | Date | null,
): string | null {
  if (!start || !end) return null;
  const from = new Date(start);
  const to = new Date(end);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return null;
  const last = to.getTime() > from.getTime() ? new Date(to.getTime() - 1) : to;
  const first = formatDateJa(from);
  const final = formatDateJa(last);
  return first === final ? first : `${first}〜${final}`;
}
