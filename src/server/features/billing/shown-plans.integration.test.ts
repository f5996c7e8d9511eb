import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { billingPlans } from '@/server/platform/db/schema';
import { useBillingSite } from '@test-support/billing-site';
import { listPlans, shownPlans, syncCatalogue } from './catalogue';

/**
 * The paywall's plans are kept 10 s per process (docs/decisions/057-staff-render-queries.md,
 * amendment of 2026-11-30); what decides a purchase reads the catalogue itself, and a sync
 * through this process is shown at once.
 */
describe('the plans a page shows', () => {
  const site = useBillingSite();
  const monthly = (plans: { key: string; active: boolean }[]) =>
    plans.find((plan) => plan.key === 'monthly')!.active;

  it('are kept for 10 s, never for a decision, and forgotten by a sync here', async () => {
    const { db } = site;
    const now = Date.now();
    expect(monthly(await shownPlans.get(db, now))).toBe(true);
    // Another instance's sync takes the monthly plan off sale.
    await db.update(billingPlans).set({ active: false }).where(eq(billingPlans.key, 'monthly'));
    expect(monthly(await shownPlans.get(db, now + 9_999))).toBe(true);
    expect(monthly(await listPlans(db))).toBe(false);
    expect(monthly(await shownPlans.get(db, now + 10_000))).toBe(false);
    // A sync through this process (the provider still sells it) is shown at once.
    await syncCatalogue(db);
    expect(monthly(await shownPlans.get(db, now + 10_001))).toBe(true);
  });
});
