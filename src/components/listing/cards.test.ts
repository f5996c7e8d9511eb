import { describe, expect, it } from 'vitest';
import type { JobCard, PostCard } from '@/server/features/content/lists';
import { jobCard, postCard } from './cards';

const job = (fields: Partial<JobCard> = {}): JobCard => ({
  id: 'job-001',
  createdAt: '2026-11-01T00:00:00.000Z',
  title: '建築設計スタッフ',
  partner: { id: 'partner-sorane', name: 'ソラネ建築設計事務所' },
  employmentType: ['正社員'],
  occupation: [],
  prefecture: ['東京都'],
  remote: ['一部リモート'],
  salaryUnit: [],
  ...fields,
});

describe('a job listing as a home page card', () => {
  it('puts the type and the area above the title and the company below', () => {
    expect(jobCard(job())).toMatchObject({
      href: '/jobs/job-001',
      kicker: '正社員 ／ 東京都',
      meta: 'ソラネ建築設計事務所',
    });
    expect(jobCard(job({ prefecture: [], remote: ['フルリモート'] })).kicker).toBe(
      '正社員 ／ フルリモート',
    );
    expect(jobCard(job({ employmentType: [], prefecture: [], partner: null }))).toMatchObject({
      kicker: '求人',
      meta: null,
    });
  });
});

describe('a post as a card', () => {
  const post: PostCard = {
    id: 'post-001',
    createdAt: '2026-11-01T00:00:00.000Z',
    title: '漆の器を選ぶ',
    isPublicPreview: false,
    format: [],
    category: null,
    series: null,
    writers: [],
    inFreePlan: false,
  };

  it('shows the reading time of the whole body, none when it was not counted', () => {
    expect(postCard({ ...post, characters: 2_600 }).readingTime).toBe('約5分');
    expect(postCard({ ...post, characters: 0 }).readingTime).toBeNull();
    expect(postCard(post).readingTime).toBeNull();
  });
});
