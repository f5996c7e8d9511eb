import 'server-only';
import { isoDateJa } from '@/lib/format';
import { type Role, STAFF_ROLES } from '@/lib/identity/roles';

/**
 * The partner rules (SPEC §6, docs/decisions/010-partners-and-job-listings.md), next to the reading
 * rules: who may act for a partner company, post and preview its job listings, and run the partner
 * programme. Each rule is a named function of who is asking and what they ask about, so a page, an
 * action and every request it makes ask the same question. Anything not allowed is answered 404 by
 * the caller: another partner's id is not even confirmed to exist.
 *
 * Partners are members whose profile names a partner (a non-empty partnerId); staff (editor,
 * admin) run the programme and may act for every partner.
 */

export type PartnerActor =
  { kind: 'anonymous' } | { kind: 'member'; partnerId: string } | { kind: 'staff' };

/** The actor a signed-in user (or nobody) is for these rules. '' partnerId: not a partner. */
export function partnerActorOf(user: { role: Role; partnerId: string } | null): PartnerActor {
  if (!user) return { kind: 'anonymous' };
  if (STAFF_ROLES.includes(user.role)) return { kind: 'staff' };
  return { kind: 'member', partnerId: user.partnerId };
}

const isMemberOf = (actor: PartnerActor, partnerId: string) =>
  actor.kind === 'member' && actor.partnerId !== '' && actor.partnerId === partnerId;

/** The partner programme's staff screens (/biz/axis-admin): staff only. */
export function canRunPartnerProgramme(actor: PartnerActor): boolean {
  return actor.kind === 'staff';
}

/** A partner's own screens and actions (/biz/partner-admin/{id}): its members and staff. */
export function canActForPartner(actor: PartnerActor, partnerId: string): boolean {
  return actor.kind === 'staff' || isMemberOf(actor, partnerId);
}

/** Writing job listings (/jobs/post): a member of some partner (for that partner only). */
export function partnerOfWriter(actor: PartnerActor): string | null {
  return actor.kind === 'member' && actor.partnerId !== '' ? actor.partnerId : null;
}

/** An unpublished listing (/jobs/preview/{id}): the members of its partner and staff. */
export function canPreviewListing(actor: PartnerActor, listing: { partnerId: string }): boolean {
  return canActForPartner(actor, listing.partnerId);
}

/** What a partner's contract allows now. */
export type PartnerContract = {
  /** ISO dates; a contract without an end runs until one is set. */
  contractStart: string | null;
  contractEnd: string | null;
  /** How many listings may be in review or published at once; null: no limit. */
  listingQuota: number | null;
};

export type SubmissionRefusal = 'no-contract' | 'contract-ended' | 'quota-reached';

/** The Japanese message for each refusal: nothing is submitted. */
export const SUBMISSION_REFUSAL_MESSAGES: Record<SubmissionRefusal, string> = {
  'no-contract':
    'パートナー契約の開始前のため、求人を審査に出せません。契約内容は担当者にお問い合わせください。',
  'contract-ended':
    'パートナー契約の期間が終了しているため、求人を審査に出せません。契約の更新は担当者にお問い合わせください。',
  'quota-reached':
    '掲載できる求人の数の上限に達しています。公開中の求人を終了するか、担当者にお問い合わせください。',
};

/**
 * Why a partner may not submit a listing for review now, or null. `openListings`: its listings
 * in review or published, the submitted one not counted. Contract days are Japanese calendar
 * days, the end day included.
 */
export function submissionRefusal(
  contract: PartnerContract,
  openListings: number,
  now: Date = new Date(),
): SubmissionRefusal | null {
  const today = isoDateJa(now.toISOString());
  const day = (date: string) => (date.length === 10 ? date : isoDateJa(date));
  if (!contract.contractStart || day(contract.contractStart) > today) return 'no-contract';
  if (contract.contractEnd && day(contract.contractEnd) < today) return 'contract-ended';
  if (contract.listingQuota !== null && openListings >= contract.listingQuota)
    return 'quota-reached';
  return null;
}
