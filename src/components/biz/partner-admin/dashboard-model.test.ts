import { describe, expect, it } from 'vitest';
import { SUBMISSION_REFUSAL_MESSAGES } from '@/server/features/partners/partner-access';
import { EMPTY_LISTING } from '@/server/features/partners/jobs/listing-input';
import type { Listing } from '@/server/features/partners/jobs/listings';
import { draftListing } from '@test-support/listings';
import {
  UNTITLED,
  countedIds,
  editorJobRow,
  listingRow,
  mergeCounts,
  quotaText,
  quotaUsage,
} from './dashboard-model';

// Noon in Japan on 2026-11-24.
const NOW = new Date('2026-11-24T03:00:00Z');
const CONTRACT = { contractStart: '2026-04-01', contractEnd: '2027-03-31', listingQuota: 3 };

let serial = 0;
function listing(changes: Partial<Listing> = {}): Listing {
  serial += 1;
  return draftListing(`job-${String(serial).padStart(12, '0')}`, String(serial), changes);
}

const published = (liveUntil: string, changes: Partial<Listing> = {}) =>
  listing({
    state: 'published',
    publishedAt: new Date('2026-10-01T00:00:00Z'),
    liveUntil,
    ...changes,
  });

describe('the quota a partner uses', () => {
  it('counts listings in review and on /jobs today, not drafts, returned or closed ones', () => {
    const listings = [
      listing({ state: 'in_review' }),
      published('2026-11-24'), // its closing day: still open
      // A new draft of a live listing: the approved version still takes its place.
      listing({ state: 'draft', publishedAt: new Date('2026-10-01'), liveUntil: '2026-12-31' }),
      published('2026-11-23'), // closed yesterday
      listing({ state: 'draft' }),
      listing({ state: 'returned', reviewComment: '給与を書いてください。' }),
    ];
    expect(quotaUsage(CONTRACT, listings, NOW)).toEqual({
      open: 3,
      quota: 3,
      refusal: 'quota-reached',
    });
    expect(quotaUsage({ ...CONTRACT, listingQuota: 4 }, listings, NOW).refusal).toBeNull();
  });

  it('refuses submitting outside the contract, whatever the quota', () => {
    expect(quotaUsage({ ...CONTRACT, contractEnd: '2026-11-23' }, [], NOW).refusal).toBe(
      'contract-ended',
    );
    expect(quotaUsage({ ...CONTRACT, contractStart: '2026-12-01' }, [], NOW).refusal).toBe(
      'no-contract',
    );
    expect(
      quotaUsage({ contractStart: null, contractEnd: null, listingQuota: null }, [], NOW).refusal,
    ).toBe('no-contract');
    // The refusal is shown in the partner's words.
    expect(SUBMISSION_REFUSAL_MESSAGES['contract-ended']).toMatch(/^パートナー契約の期間が終了/);
  });

  it('says the usage in Japanese, with or without a limit', () => {
    expect(quotaText({ open: 2, quota: 5, refusal: null })).toBe('5件中2件を使用');
    expect(quotaText({ open: 2, quota: null, refusal: null })).toBe('上限なし（2件を使用）');
  });
});

describe('a listing’s row on the dashboard', () => {
  const counts = mergeCounts(new Map([['job-live', 120]]), new Map([['job-live', 7]]));

  it('shows a live listing with its views and clicks and its closing day', () => {
    const row = listingRow(
      published('2026-12-31', {
        id: 'job-live',
        fields: { ...EMPTY_LISTING, title: '建築設計スタッフ', closingDate: '2026-12-31' },
      }),
      counts,
      NOW,
    );
    expect(row).toMatchObject({
      title: '建築設計スタッフ',
      state: 'published',
      stateLabel: '公開中',
      live: true,
      liveWhileChanging: false,
      closingDate: '2026-12-31',
      counts: { views: 120, clicks: 7 },
      reviewComment: null,
    });
  });

  it('calls a published listing past its closing day 募集終了 and keeps its counts', () => {
    const row = listingRow(published('2026-11-23'), counts, NOW);
    expect(row).toMatchObject({ state: 'closed', stateLabel: '募集終了', live: false });
    expect(row.counts).toEqual({ views: 0, clicks: 0 });
  });

  it('has no counts before it was ever published, and a title even when none was typed', () => {
    const row = listingRow(listing({ fields: { ...EMPTY_LISTING } }), counts, NOW);
    expect(row).toMatchObject({ stateLabel: '下書き', title: UNTITLED, counts: null });
    expect(row.closingDate).toBeNull();
  });

  it('shows staff’s comment on a returned listing only', () => {
    const returned = listingRow(
      listing({ state: 'returned', reviewComment: '給与の範囲を書いてください。' }),
      counts,
      NOW,
    );
    expect(returned).toMatchObject({
      stateLabel: '差し戻し',
      reviewComment: '給与の範囲を書いてください。',
    });
    // A comment left from an earlier return is not news once it is resubmitted.
    const resubmitted = listingRow(
      listing({ state: 'in_review', reviewComment: '古いコメント' }),
      counts,
      NOW,
    );
    expect(resubmitted).toMatchObject({ stateLabel: '審査中', reviewComment: null });
  });

  it('says when a live listing is being changed (its approved version stays up)', () => {
    const row = listingRow(
      listing({ state: 'in_review', publishedAt: new Date('2026-10-01'), liveUntil: '2026-12-31' }),
      counts,
      NOW,
    );
    expect(row).toMatchObject({ stateLabel: '審査中', live: true, liveWhileChanging: true });
  });
});

describe('the jobs the editors placed', () => {
  it('are open until their closing day in Japan, with their counts', () => {
    const counts = mergeCounts(new Map([['job-001', 3]]), new Map());
    const job = { id: 'job-001', title: '設計', publishedAt: '2026-07-01T01:00:00Z' };
    expect(
      editorJobRow({ ...job, closingDate: '2026-11-24T23:59:59+09:00' }, counts, NOW),
    ).toMatchObject({ closed: false, counts: { views: 3, clicks: 0 } });
    expect(
      editorJobRow({ ...job, closingDate: '2026-11-23T23:59:59+09:00' }, counts, NOW).closed,
    ).toBe(true);
    expect(editorJobRow({ ...job, closingDate: null }, counts, NOW).closed).toBe(false);
  });

  it('are counted with the listings that were ever published, and nothing else', () => {
    const draft = listing();
    const live = published('2026-12-31');
    expect(
      countedIds(
        [draft, live],
        [{ id: 'job-001', title: '', publishedAt: null, closingDate: null }],
      ),
    ).toEqual([live.id, 'job-001']);
  });
});
