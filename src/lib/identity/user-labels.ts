import { formatDateJa } from '@/lib/format';
import type { SubscriptionStatus } from '@/lib/auth-state';
import type { Role } from '@/lib/identity/roles';
import { SUBSCRIPTION_STATE_LABELS } from '@/lib/subscription-labels';

/** An account's plan as the admin screens show it (src/server/features/admin/users-directory.ts). */
export type PlanState = {
  paid: boolean;
  planName: string | null;
  status: SubscriptionStatus | null;
  /** ISO time the current term ends, or null (no end, or not paid). */
  endsAt: string | null;
  cancelAtPeriodEnd: boolean;
};

/** How the admin screens name roles and subscription states. */

export const ROLE_LABELS: Record<Role, string> = {
  member: '会員',
  contributor: '寄稿者',
  editor: '編集者',
  admin: '管理者',
};

/** The site's and the portal's words (src/lib/subscription-labels.ts). */
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> =
  SUBSCRIPTION_STATE_LABELS;

/** 「有料会員（プラン名、有効、2026年12月31日まで）」 or 「無料会員」. */
export function planText(plan: PlanState): string {
  if (!plan.paid) return '無料会員';
  const parts = [
    plan.planName ?? 'プラン名なし',
    plan.status ? SUBSCRIPTION_STATUS_LABELS[plan.status] : null,
    plan.endsAt
      ? `${formatDateJa(plan.endsAt)}${plan.cancelAtPeriodEnd ? 'まで（解約予定）' : 'まで'}`
      : '期限なし',
  ].filter(Boolean);
  return `有料会員（${parts.join('、')}）`;
}
