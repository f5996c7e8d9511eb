// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { EMPTY_LISTING, listingChanges } from '@/server/features/partners/jobs/listing-input';
import { type ListingView, PartnerListings } from './partner-listings';

const fields = { ...EMPTY_LISTING, title: 'デザイナー', hours: '10:00〜19:00' };

const inReview = (changes: ListingView['changes']): ListingView => ({
  id: 'job-aaaaaaaaaaaa',
  state: 'in_review',
  fields: { ...fields, title: 'デザイナー（急募）' },
  changes,
  reviewComment: null,
  revision: 4,
  submittedAt: new Date('2026-11-26T15:30:00Z'),
  updatedAt: new Date('2026-11-26T15:30:00Z'),
  publishedAt: null,
  liveUntil: null,
  live: false,
  views: 0,
  applyClicks: 0,
});

describe('PartnerListings review', () => {
  it('shows staff what a resubmission changed, the whole listing folded below', () => {
    const changes = listingChanges(fields, { ...fields, title: 'デザイナー（急募）' });
    render(<PartnerListings listings={[inReview(changes)]} flash={null} />);
    expect(screen.getByText('前回の審査からの変更')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '職種名 (求人タイトル)' })).toBeInTheDocument();
    expect(document.querySelector('ins')).toHaveTextContent('［追加］（急募）［追加ここまで］');
    expect(screen.getByText('審査する内容（全文）').closest('details')).not.toHaveAttribute('open');
    // Submitted at 00:30 in Japan: the date on screen is the Japan one.
    expect(screen.getAllByText('2026年11月27日 00:30')).toHaveLength(2);
  });

  it('shows a first submission whole', () => {
    render(<PartnerListings listings={[inReview(null)]} flash={null} />);
    expect(screen.getByText('審査する内容')).toBeInTheDocument();
    expect(screen.queryByText('前回の審査からの変更')).not.toBeInTheDocument();
  });
});
