// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Category, PostCard } from '@/server/features/content/lists';
import { CurrentIssue, IssueList } from './issue-list';

const ISSUE = {
  id: 'issue-1',
  name: '光と素材',
  issueNumber: 12,
  createdAt: '2026-10-01T00:00:00.000Z',
  updatedAt: '2026-10-01T00:00:00.000Z',
  publishedAt: '2026-10-01T00:00:00.000Z',
} as unknown as Category;

const lead = (overrides: Partial<PostCard>): PostCard => ({
  id: 'p1',
  title: '巻頭インタビュー',
  isPublicPreview: false,
  inFreePlan: false,
  format: [],
  category: null,
  series: null,
  writers: [{ id: 'w1', name: '山田花子' }],
  createdAt: '2026-10-01T00:00:00.000Z',
  ...overrides,
});

describe('feature issues: the lead article', () => {
  it('says who may read it, in the access words of the cards', () => {
    render(<CurrentIssue issue={ISSUE} lead={lead({})} />);
    expect(screen.getByText('巻頭記事').parentElement).toHaveTextContent('有料会員限定');
  });

  it('says 無料公開 and 会員限定 for the other levels, on back issues too', () => {
    render(
      <IssueList
        issues={[
          { issue: ISSUE, lead: lead({ isPublicPreview: true }) },
          { issue: { ...ISSUE, id: 'issue-2' }, lead: lead({ id: 'p2', inFreePlan: true }) },
        ]}
      />,
    );
    const [first, second] = screen.getAllByText('巻頭記事').map((label) => label.parentElement);
    expect(first).toHaveTextContent('無料公開');
    expect(second).toHaveTextContent('会員限定');
    expect(second).not.toHaveTextContent('有料会員限定');
  });
});
