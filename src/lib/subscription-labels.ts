import type { SubscriptionStatus } from '@/lib/auth-state';
import { formatDateJa } from '@/lib/format';

/**
 * The words for a subscription's state, one map for every screen that names it: the site's plan
 * and account pages, the sandbox's customer portal, the admin's user screens. A reader who sees
 * 「解約予定」 in the portal reads 「解約予定」 on the site.
 *
 * - 解約予定: set to end at its period's end (Stripe's `cancel_at_period_end`); still usable
 *   until then, not renewed.
 * - 終了: ended (`canceled`); nothing more is charged, paid pages close.
 */
export const SUBSCRIPTION_STATE_LABELS: Record<SubscriptionStatus, string> = {
  active: '有効',
  trialing: '無料体験中',
  past_due: 'お支払いが確認できません',
  unpaid: '未払い',
  incomplete: 'お支払い手続き中',
  incomplete_expired: 'お支払い手続きの期限切れ',
  canceled: '終了',
  paused: '一時停止中',
};

export const CANCELING_LABEL = '解約予定';

type Moment = string | number | Date | null | undefined;
const dateOf = (value: Moment): Date | null => {
  if (value === null || value === undefined) return null;
  // The provider's times are Unix seconds.
  const date = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
};

/**
 * A subscription's state in words, with the date that matters: 「解約予定（2026年7月1日まで
 * 利用できます）」, 「無料体験中（2026年6月14日まで）」, else the map's word.
 */
export function subscriptionStateLabel(subscription: {
  status: string;
  cancelAtPeriodEnd: boolean;
  /** When a plan set to end ends (the period's end, or Stripe's `cancel_at`). */
  endsAt?: Moment;
  trialEnd?: Moment;
}): string {
  const { status } = subscription;
  if (subscription.cancelAtPeriodEnd && status !== 'canceled') {
    const end = dateOf(subscription.endsAt);
    return end ? `${CANCELING_LABEL}（${formatDateJa(end)}まで利用できます）` : CANCELING_LABEL;
  }
  if (status === 'trialing') {
    const end = dateOf(subscription.trialEnd);
    return end ? `無料体験中（${formatDateJa(end)}まで）` : '無料体験中';
  }
  return SUBSCRIPTION_STATE_LABELS[status as SubscriptionStatus] ?? status;
}
