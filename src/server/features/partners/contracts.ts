import 'server-only';
import { count, eq, inArray } from 'drizzle-orm';
import { todayInJapan } from '@/lib/jobs';
import type { ContractState } from '@/lib/partners/contract-state';
import type { PartnerContract } from '@/server/features/partners/partner-access';
import type { Db } from '@/server/platform/db/client';
import { partnerContracts, userPublicProfiles } from '@/server/platform/db/schema';

/** Partner contracts and member counts: the queries (src/server/features/partners/partners.ts holds the rules). */

export const NO_CONTRACT: PartnerContract = {
  contractStart: null,
  contractEnd: null,
  listingQuota: null,
};

/** Where a contract stands on the Japanese day of `now`. */
export function contractState(contract: PartnerContract, now: Date = new Date()): ContractState {
  if (!contract.contractStart) return 'none';
  const today = todayInJapan(now);
  if (contract.contractStart > today) return 'upcoming';
  if (contract.contractEnd && contract.contractEnd < today) return 'ended';
  return 'active';
}

const contractColumns = {
  partnerId: partnerContracts.partnerId,
  contractStart: partnerContracts.contractStart,
  contractEnd: partnerContracts.contractEnd,
  listingQuota: partnerContracts.listingQuota,
};

export async function contractsOf(
  db: Db,
  partnerIds: readonly string[],
): Promise<Map<string, PartnerContract>> {
  if (partnerIds.length === 0) return new Map();
  const rows = await db
    .select(contractColumns)
    .from(partnerContracts)
    .where(inArray(partnerContracts.partnerId, [...partnerIds]));
  return new Map(rows.map(({ partnerId, ...contract }) => [partnerId, contract]));
}

export async function contractOf(db: Db, partnerId: string): Promise<PartnerContract> {
  return (await contractsOf(db, [partnerId])).get(partnerId) ?? NO_CONTRACT;
}

export async function saveContract(
  db: Db,
  partnerId: string,
  contract: PartnerContract,
): Promise<void> {
  await db
    .insert(partnerContracts)
    .values({ partnerId, ...contract })
    .onConflictDoUpdate({
      target: partnerContracts.partnerId,
      set: { ...contract, updatedAt: new Date() },
    });
}

export async function memberCountsOf(
  db: Db,
  partnerIds: readonly string[],
): Promise<Map<string, number>> {
  if (partnerIds.length === 0) return new Map();
  const rows = await db
    .select({ partnerId: userPublicProfiles.partnerId, members: count() })
    .from(userPublicProfiles)
    .where(inArray(userPublicProfiles.partnerId, [...partnerIds]))
    .groupBy(userPublicProfiles.partnerId);
  return new Map(rows.map((r) => [r.partnerId, r.members]));
}

/** The partner a user acts for ('' none). */
export async function partnerIdOfUser(db: Db, userId: string): Promise<string> {
  const [row] = await db
    .select({ partnerId: userPublicProfiles.partnerId })
    .from(userPublicProfiles)
    .where(eq(userPublicProfiles.userId, userId));
  return row?.partnerId ?? '';
}
