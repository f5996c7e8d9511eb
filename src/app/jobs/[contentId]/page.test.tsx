// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { JOB_CONDITIONS } from '@test-support/jobs';
import type { Job } from '@/server/features/content/schemas';

const read = vi.hoisted(() => ({ readJob: vi.fn() }));
vi.mock('@/server/features/access/read', () => read);
vi.mock('@/components/listing/site-metadata', () => ({
  shareMetadata: (input: { title: string; noIndex?: boolean }) => input,
  jsonLdSite: () => ({ siteUrl: 'https://axis.example.jp', siteName: 'AXIS Membership' }),
}));
vi.mock('@/components/preview/preview-banner.client', () => ({
  PreviewBanner: () => <div role="region" aria-label="プレビューモード" />,
}));

import JobPage, { generateMetadata } from './page';

const job = (fields: Partial<Job> = {}): Job => ({
  id: 'job-001',
  createdAt: '2026-07-01T00:00:00.000Z',
  updatedAt: '2026-07-01T00:00:00.000Z',
  publishedAt: '2026-07-01T01:00:00.000Z',
  title: '建築設計スタッフ',
  partner: {
    id: 'partner-sorane',
    createdAt: '2026-07-01T00:00:00.000Z',
    updatedAt: '2026-07-01T00:00:00.000Z',
    name: 'ソラネ建築設計事務所',
    website: 'https://example.com/partners/sorane',
    logo: { url: '/uploads/demo/logo-01.png' },
  },
  description: '設計スタッフを募集します。',
  body: '<h2>仕事内容</h2><p>基本設計から監理まで。</p>',
  ...JOB_CONDITIONS,
  occupation: ['建築・インテリア'],
  hours: '10:00〜19:00',
  applyUrl: 'https://example.com/recruit/sorane',
  applyEmail: null,
  // Far from today either way: the page decides open or closed by the real clock.
  closingDate: '2099-01-31T23:59:59+09:00',
  ...fields,
});

const params = Promise.resolve({ contentId: 'job-001' });
async function show(item: Job, preview = false) {
  read.readJob.mockResolvedValue({ item, preview });
  const { container } = render(await JobPage({ params }));
  const script = container.querySelector('script[type="application/ld+json"]');
  return {
    jsonLd: script ? (JSON.parse(script.textContent ?? '') as { '@type': string }[]) : null,
  };
}

beforeEach(() => read.readJob.mockReset());

describe('a job listing page', () => {
  it('shows the conditions, a counted way to apply and JobPosting data while open', async () => {
    const { jsonLd } = await show(job());
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('建築設計スタッフ');
    const conditions = within(screen.getByRole('region', { name: '募集要項' }));
    expect(conditions.getByText('年収 420万〜650万円')).toBeInTheDocument();
    expect(conditions.getByText('東京都 渋谷区神宮前')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'この求人に応募する' })).toHaveAttribute(
      'href',
      '/jobs/job-001/apply',
    );
    expect(screen.queryByText('この求人の募集は終了しました')).toBeNull();
    expect(jsonLd?.map((o) => o['@type'])).toEqual(['JobPosting', 'BreadcrumbList']);
    expect(jsonLd?.[0]).toMatchObject({
      description: '<h2>仕事内容</h2><p>基本設計から監理まで。</p>',
      baseSalary: { currency: 'JPY', value: { minValue: 4_200_000, unitText: 'YEAR' } },
      hiringOrganization: { name: 'ソラネ建築設計事務所' },
      directApply: false,
    });
    expect(await generateMetadata({ params })).toMatchObject({ noIndex: false });
  });

  it('says a closed listing is closed, with no way to apply, no JobPosting and noindex', async () => {
    const closed = job({ closingDate: '2020-03-31T23:59:59+09:00' });
    const { jsonLd } = await show(closed);
    expect(screen.getByRole('note')).toHaveTextContent('この求人の募集は終了しました');
    expect(screen.queryByRole('link', { name: 'この求人に応募する' })).toBeNull();
    expect(document.querySelector('a[href*="/apply"]')).toBeNull();
    expect(jsonLd).toBeNull();
    read.readJob.mockResolvedValue({ item: closed, preview: false });
    expect(await generateMetadata({ params })).toMatchObject({
      noIndex: true,
      title: '【募集終了】建築設計スタッフ（ソラネ建築設計事務所）',
    });
  });

  it('offers e-mail through the counting route, with the address shown', async () => {
    await show(job({ applyUrl: null, applyEmail: 'recruit@example.com' }));
    expect(screen.getByRole('link', { name: 'この求人に応募する' })).toHaveAttribute(
      'href',
      '/jobs/job-001/apply?via=email',
    );
    expect(screen.getByText('recruit@example.com')).toBeInTheDocument();
  });

  it('in a preview links straight to the address (no published listing to count) and has no JobPosting', async () => {
    const { jsonLd } = await show(job(), true);
    expect(screen.getByRole('region', { name: 'プレビューモード' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'この求人に応募する' })).toHaveAttribute(
      'href',
      'https://example.com/recruit/sorane',
    );
    expect(jsonLd).toBeNull();
  });
});
