import { LISTING_STATE_LABELS, type ListingState, isClosed } from '@/lib/jobs';
import {
  type PartnerContract,
  type SubmissionRefusal,
  submissionRefusal,
} from '@/server/features/partners/partner-access';
import { type Listing, displayState, isLive } from '@/server/features/partners/jobs/listings';

/**
 * What the partner dashboard (/biz/partner-admin/{id}) shows of its listings and contract,
 * worked out from plain data so the rules can be tested without a page: which listings use the
 * quota, what each listing's row says, and what the partner may do with it.
 */

export type QuotaUsage = {
  /** Listings in review or on /jobs today: the ones that use the quota. */
  open: number;
  quota: number | null;
  /** Why submitting a listing would be refused now, or null. */
  refusal: SubmissionRefusal | null;
};

/** A listing uses the quota while in review or while a version of it is on /jobs. */
export function usesQuota(listing: Pick<Listing, 'state' | 'liveUntil'>, now: Date): boolean {
  return listing.state === 'in_review' || isLive(listing, now);
}

export function quotaUsage(
  contract: PartnerContract,
  listings: readonly Pick<Listing, 'state' | 'liveUntil'>[],
  now: Date = new Date(),
): QuotaUsage {
  const open = listings.filter((listing) => usesQuota(listing, now)).length;
  return { open, quota: contract.listingQuota, refusal: submissionRefusal(contract, open, now) };
}

/** 「5件中2件を使用」, or 「上限なし（2件を使用）」. */
export function quotaText({ open, quota }: QuotaUsage): string {
  return quota === null ? `上限なし（${open}件を使用）` : `${quota}件中${open}件を使用`;
}

export type Counts = { views: number; clicks: number };

export type ListingRow = {
  id: string;
  title: string;
  state: ListingState | 'closed';
  stateLabel: string;
  updatedAt: Date;
  /** YYYY-MM-DD, or null when none is set yet. */
  closingDate: string | null;
  /** Its approved version is on /jobs today (even while a new draft of it is being written). */
  live: boolean;
  /** Edited since approval: the approved version stays up until the new one is approved. */
  liveWhileChanging: boolean;
  /** Views and apply clicks, once it has been published. */
  counts: Counts | null;
  /** Staff's reason for returning it, while it is returned. */
  reviewComment: string | null;
};

export const UNTITLED = '（タイトル未入力）';

const NO_COUNTS: Counts = { views: 0, clicks: 0 };

export function listingRow(
  listing: Listing,
  counts: ReadonlyMap<string, Counts>,
  now: Date = new Date(),
): ListingRow {
  const state = displayState(listing, now);
  const live = isLive(listing, now);
  return {
    id: listing.id,
    title: listing.fields.title.trim() || UNTITLED,
    state,
    stateLabel: LISTING_STATE_LABELS[state],
    updatedAt: listing.updatedAt,
    closingDate: listing.fields.closingDate || listing.liveUntil || null,
    live,
    liveWhileChanging: live && listing.state !== 'published',
    counts: listing.publishedAt === null ? null : (counts.get(listing.id) ?? NO_COUNTS),
    reviewComment: listing.state === 'returned' ? listing.reviewComment : null,
  };
}

/** A job the editors placed for the partner directly (no listing of the partner's own). */
export type EditorJob = {
  id: string;
  title: string;
  publishedAt: string | null;
  closingDate: string | null;
};

export type EditorJobRow = EditorJob & { closed: boolean; counts: Counts };

export function editorJobRow(
  job: EditorJob,
  counts: ReadonlyMap<string, Counts>,
  now: Date = new Date(),
): EditorJobRow {
  return {
    ...job,
    closed: isClosed(job.closingDate, now),
    counts: counts.get(job.id) ?? NO_COUNTS,
  };
}

/** The ids whose views and clicks the dashboard shows: what was ever on /jobs. */
export function countedIds(listings: readonly Listing[], editorJobs: readonly EditorJob[]) {
  return [
    ...listings.filter((listing) => listing.publishedAt !== null).map((listing) => listing.id),
    ...editorJobs.map((job) => job.id),
  ];
}

/** Views and apply clicks side by side, per content id. */
export function mergeCounts(
  views: ReadonlyMap<string, number>,
  clicks: ReadonlyMap<string, number>,
): Map<string, Counts> {
  const ids = new Set([...views.keys(), ...clicks.keys()]);
  return new Map(
    [...ids].map((id) => [id, { views: views.get(id) ?? 0, clicks: clicks.get(id) ?? 0 }]),
  );
}
