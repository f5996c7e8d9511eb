import 'server-only';
import type { Db } from '@/server/platform/db/client';
import { partnerContracts } from '@/server/platform/db/schema';

/**
 * Contracts for the demo corpus's partner companies (assets/demo/content/partners.json), so
 * that a fresh install shows the programme working: a year from April 2026, five listings at
 * once. A contract staff have changed is left as it is.
 */
const DEMO_PARTNER_IDS = [
  'partner-sorane',
  'partner-lumeo',
  'partner-mokume',
  'partner-itonami',
  'partner-kasane',
] as const;

export async function seedDemoContracts(db: Db): Promise<number> {
  const created = await db
    .insert(partnerContracts)
    .values(
      DEMO_PARTNER_IDS.map((partnerId) => ({
        partnerId,
        contractStart: '2026-04-01',
        contractEnd: '2027-03-31',
        listingQuota: 5,
      })),
    )
    .onConflictDoNothing()
    .returning({ id: partnerContracts.partnerId });
  return created.length;
}
