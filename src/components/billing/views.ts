import type { Plan } from '@/server/features/billing/catalogue';
import type { CurrentPlan, Receipt } from '@/server/features/billing/reader-billing';
import type { CurrentPlanView, PlanView } from './billing-format';
import type { ReceiptDetailView } from './receipt-view';

/** The server's billing records as the screens take them: plain, with ISO dates. */

export function toPlanView(plan: Plan): PlanView {
  return {
    key: plan.key,
    name: plan.name,
    amount: plan.amount,
    interval: plan.interval,
    intervalCount: plan.intervalCount,
    active: plan.active,
    productId: plan.productId,
  };
}

export function toCurrentPlanView(plan: CurrentPlan): CurrentPlanView {
  return {
    provider: plan.provider,
    planName: plan.planName,
    planKey: plan.planKey,
    status: plan.status,
    cancelAtPeriodEnd: plan.cancelAtPeriodEnd,
    currentPeriodEnd: plan.currentPeriodEnd?.toISOString() ?? null,
    trialEnd: plan.trialEnd?.toISOString() ?? null,
  };
}

export function toReceiptView(receipt: Receipt): ReceiptDetailView {
  return {
    id: receipt.id,
    number: receipt.number,
    total: receipt.total,
    tax: receipt.tax,
    lines: receipt.lines.map((line) => ({
      description: line.description,
      amount: line.amount,
      periodStart: line.periodStart,
      periodEnd: line.periodEnd,
    })),
    paidAt: receipt.paidAt?.toISOString() ?? null,
    createdAt: receipt.createdAt.toISOString(),
  };
}
