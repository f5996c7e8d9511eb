import type { PlanView } from '@/components/billing/billing-format';

/** The two plans of the demo catalogue, as the billing screens are given them. */
export const MONTHLY_PLAN: PlanView = {
  key: 'monthly',
  name: 'メンバーシップ 月額プラン',
  amount: 1100,
  interval: 'month',
  intervalCount: 1,
  active: true,
};

export const YEARLY_PLAN: PlanView = {
  ...MONTHLY_PLAN,
  key: 'yearly',
  name: 'メンバーシップ 年額プラン',
  amount: 11000,
  interval: 'year',
};

export const PLANS: PlanView[] = [MONTHLY_PLAN, YEARLY_PLAN];
