/**
 * The site's two paid plans by key, which forms, signed links and the plan catalogue
 * (src/server/features/billing/catalogue.ts, the provider's prices behind them) all name.
 */
export const PLAN_KEYS = ['monthly', 'yearly'] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

export function isPlanKey(value: unknown): value is PlanKey {
  return (PLAN_KEYS as readonly unknown[]).includes(value);
}
