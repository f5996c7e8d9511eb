import { EMPTY_LISTING } from '@/server/features/partners/jobs/listing-input';
import type { Listing } from '@/server/features/partners/jobs/listings';

/** A draft job listing of partner-sorane titled `求人 {label}`, with those changes. */
export function draftListing(id: string, label: string, changes: Partial<Listing> = {}): Listing {
  return {
    id,
    partnerId: 'partner-sorane',
    state: 'draft',
    fields: { ...EMPTY_LISTING, title: `求人 ${label}` },
    reviewedFields: null,
    reviewComment: null,
    publishedAt: null,
    liveUntil: null,
    revision: 1,
    submittedAt: null,
    reviewedAt: null,
    createdAt: new Date('2026-11-01T00:00:00Z'),
    updatedAt: new Date('2026-11-20T00:00:00Z'),
    ...changes,
  };
}
