import { formatDateJa, formatYen } from './format';

/**
 * The site-wide billing notice of a signed-in reader (carried by /api/me, shown under the
 * header):
 * - `past_due`: the current live plan's renewal failed: what is owed and when the provider
 *   tries the card again (null when the billing data does not say).
 * - `plan_ended`: the reader's plan has ended; said once (the server records that it was
 *   shown: src/server/billing/reader-notices.ts), never again for that plan.
 */
export type BillingNotice =
  | { kind: 'past_due'; amount: number | null; nextAttempt: string | null }
  | { kind: 'plan_ended'; planName: string; endedAt: string }
  | null;

// Checked by hand, not with zod: this runs in every page's client bundle, where zod would add
// its size and its eval probe (which the Content-Security-Policy reports as a violation).
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;
const isDateTime = (value: unknown): value is string =>
  typeof value === 'string' && ISO_DATETIME.test(value) && !Number.isNaN(Date.parse(value));

/** An answer's notice, or none when it is missing or not one (an older server, a bad answer). */
export function parseBillingNotice(value: unknown): BillingNotice {
  if (typeof value !== 'object' || value === null) return null;
  const notice = value as Record<string, unknown>;
  if (notice.kind === 'past_due') {
    const { amount, nextAttempt } = notice;
    const amountOk =
      amount === null || (typeof amount === 'number' && Number.isInteger(amount) && amount >= 0);
    if (!amountOk || !(nextAttempt === null || isDateTime(nextAttempt))) return null;
    return { kind: 'past_due', amount: amount, nextAttempt };
  }
  if (notice.kind === 'plan_ended') {
    const { planName, endedAt } = notice;
    if (typeof planName !== 'string' || planName.length > 200 || !isDateTime(endedAt)) return null;
    return { kind: 'plan_ended', planName, endedAt };
  }
  return null;
}

const LIVE = new Set<string>(['active', 'trialing', 'past_due']);

/**
 * The reader's current live plan — the newest active, trialing or past_due subscription, as the
 * plans page takes it — when its renewal failed.
 */
export function pastDuePlanOf<T extends { status: string }>(subscriptions: readonly T[]): T | null {
  const current = subscriptions.find((subscription) => LIVE.has(subscription.status));
  return current?.status === 'past_due' ? current : null;
}

/** The notice in words: amounts in yen, dates in Japan time. */
export function billingNoticeText(notice: NonNullable<BillingNotice>): string {
  if (notice.kind === 'plan_ended') {
    const plan = notice.planName || '有料プラン';
    return `${plan}は${formatDateJa(notice.endedAt)}に終了しました。有料会員限定の記事・音声・動画をご利用いただくには、もう一度お申し込みください。`;
  }
  const amount = notice.amount !== null ? `（${formatYen(notice.amount)}）` : '';
  const retry = notice.nextAttempt
    ? `${formatDateJa(notice.nextAttempt)}に自動で再度決済します。それまでに`
    : '';
  return `カードでのお支払い${amount}ができませんでした。${retry}カード情報を更新してください。`;
}
