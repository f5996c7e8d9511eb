import type { PartnerContract } from '@/server/features/partners/partner-access';
import { formatDateJa } from '@/lib/format';

/** 「2026年4月1日〜2027年3月31日」, an open end said in words; '' without a contract. */
export function contractPeriod(contract: PartnerContract): string {
  if (!contract.contractStart) return '';
  const end = contract.contractEnd ? formatDateJa(contract.contractEnd) : '終了日なし';
  return `${formatDateJa(contract.contractStart)}〜${end}`;
}

/** 掲載枠: listings in review or on /jobs at once. */
export function quotaText(contract: PartnerContract): string {
  return contract.listingQuota === null ? '上限なし' : `${contract.listingQuota}件`;
}
