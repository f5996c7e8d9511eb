import {
  type CurrentPlanView,
  planRenewalLine,
  planStatusLabel,
} from '@/components/billing/billing-format';

/**
 * The reader's plan as the account screens state it: its name and status with the renewal on the
 * next line, 無料会員 without one, and a notice where the billing records could not be read.
 */
export function PlanSummary({ plan, loaded }: { plan: CurrentPlanView | null; loaded: boolean }) {
  if (!plan) return <>{loaded ? '無料会員' : 'プランの情報を読み込めませんでした。'}</>;
  const renewal = planRenewalLine(plan);
  return (
    <>
      {plan.planName || '有料プラン'}（{planStatusLabel(plan)}）
      {renewal ? (
        <>
          <br />
          {renewal}
        </>
      ) : null}
    </>
  );
}
