// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

vi.mock('@/components/bookmarks/bookmark-button.client', () => ({ BookmarkButton: () => null }));
vi.mock('@/components/content/responsive-image', () => ({
  ResponsiveImage: () => null,
  FillCover: () => null,
}));

import { ContentCard } from '@/components/listing/content-card';
import { audioCard, connectCard, movieCard, postCard } from '@/components/listing/cards';
import { AccessBadge } from './access-badge';
import { ItemHeader } from './item-header';

const post = {
  id: 'p1',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  publishedAt: '2026-11-01T00:00:00.000Z',
  revisedAt: '2026-11-01T00:00:00.000Z',
  title: '記事',
  isPublicPreview: false,
  format: [],
  category: null,
  series: null,
  writers: [{ id: 'w', name: '山田' }],
};
const media = { ...post, writers: [{ id: 'w', name: '佐藤' }] };

describe('AccessBadge', () => {
  it.each([
    ['open', '無料公開'],
    ['members', '会員限定'],
    ['paid', '有料会員限定'],
  ] as const)('shows %s as 「%s」, the words screen readers read too', (level, text) => {
    render(<AccessBadge level={level} />);
    const badge = screen.getByText(text, { exact: true });
    expect(badge).not.toHaveAttribute('aria-label');
    expect(badge.className).toContain(level);
  });
});

describe('cards and headers say the same words', () => {
  it.each([
    [{ ...post, isPublicPreview: true, inFreePlan: false }, '無料公開'],
    [{ ...post, inFreePlan: true }, '会員限定'],
    [{ ...post, inFreePlan: false }, '有料会員限定'],
  ])('a post card: %#', (card, text) => {
    render(<ContentCard item={postCard(card)} />);
    expect(screen.getByText(text, { exact: true })).toBeInTheDocument();
    expect(screen.getByText('文・山田')).toBeInTheDocument();
  });

  it('audio and movie cards: 有料会員限定, and their writers are the cast (出演)', () => {
    const { unmount } = render(<ContentCard item={audioCard(media)} />);
    expect(screen.getByText('有料会員限定', { exact: true })).toBeInTheDocument();
    expect(screen.getByText('出演・佐藤')).toBeInTheDocument();
    unmount();
    render(<ContentCard item={movieCard({ ...media, isPublicPreview: true })} />);
    expect(screen.getByText('無料公開', { exact: true })).toBeInTheDocument();
    expect(screen.queryByText(/文・/)).toBeNull();
  });

  it('a コネクト card: 会員限定 (any account opens it)', () => {
    render(<ContentCard item={connectCard({ ...post, title: 'レビュー会' })} />);
    expect(screen.getByText('会員限定', { exact: true })).toBeInTheDocument();
  });

  it('an item header shows the badge of its level', () => {
    render(<ItemHeader title="記事" access="paid" />);
    expect(screen.getByRole('banner')).toHaveTextContent('有料会員限定');
  });
});
