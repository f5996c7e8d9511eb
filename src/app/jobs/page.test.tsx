// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const lists = vi.hoisted(() => ({ listJobs: vi.fn(), listPartnerNames: vi.fn() }));
vi.mock('@/server/features/content/lists', () => lists);
vi.mock('@/components/listing/site-metadata', () => ({
  sitePageMetadata: (input: { title: string; noIndex?: boolean }) => input,
}));

import JobsPage, { generateMetadata } from './page';

const card = (id: string) => ({
  id,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  publishedAt: '2026-11-01T00:00:00.000Z',
  title: `求人 ${id}`,
  partner: { id: 'p-a', name: '株式会社エー' },
  employmentType: ['正社員'],
  occupation: ['エンジニア'],
  prefecture: [],
  remote: ['フルリモート'],
  salaryUnit: ['時給'],
  salaryMin: 1_500,
  salaryMax: null,
  closingDate: '2027-01-31T14:59:59.000Z',
});

const show = async (query: Record<string, string>) =>
  render(await JobsPage({ searchParams: Promise.resolve(query) }));

beforeEach(() => {
  lists.listPartnerNames.mockResolvedValue([{ id: 'p-a', name: '株式会社エー' }]);
  lists.listJobs.mockResolvedValue({
    items: [card('j1')],
    totalCount: 25,
    page: 2,
    totalPages: 3,
  });
});

describe('/jobs', () => {
  it('passes only known filters on, shows them chosen, and pages with them', async () => {
    await show({ type: '正社員', location: 'remote', occupation: '宇宙飛行士', page: '2' });
    expect(lists.listJobs).toHaveBeenCalledWith({
      page: 2,
      employmentType: '正社員',
      occupation: undefined,
      location: 'remote',
      partner: undefined,
    });
    const form = within(screen.getByRole('search', { name: '求人の絞り込み' }));
    expect(form.getByLabelText('雇用形態')).toHaveValue('正社員');
    expect(form.getByLabelText('勤務地')).toHaveValue('remote');
    expect(form.getByLabelText('職種')).toHaveValue('');
    expect(form.getByRole('link', { name: '条件をクリア' })).toHaveAttribute('href', '/jobs');
    expect(screen.getByText('件の求人').textContent).toBe('25件の求人');
    const paging = within(screen.getByRole('navigation', { name: 'ページ送り' }));
    expect(paging.getByRole('link', { name: '3 ページ目' })).toHaveAttribute(
      'href',
      `/jobs?type=${encodeURIComponent('正社員')}&location=remote&page=3`,
    );
    const item = within(screen.getByRole('article'));
    expect(item.getByRole('link', { name: '求人 j1' })).toHaveAttribute('href', '/jobs/j1');
    expect(item.getByText('フルリモート')).toBeInTheDocument();
    expect(item.getByText('時給 1,500円〜')).toBeInTheDocument();
    const companies = within(
      screen.getByRole('complementary', { name: '求人を掲載したい企業の方へ' }),
    );
    expect(companies.getByRole('link')).toHaveAttribute('href', '/jobs/about/contact');
  });

  it('says when nothing matches and offers to clear the filters', async () => {
    lists.listJobs.mockResolvedValue({ items: [], totalCount: 0, page: 1, totalPages: 1 });
    await show({ partner: 'p-a' });
    expect(screen.getByRole('status')).toHaveTextContent('条件に合う求人はありません。');
    expect(
      within(screen.getByRole('status')).getByRole('link', {
        name: '条件をクリアしてすべての求人を見る',
      }),
    ).toHaveAttribute('href', '/jobs');
  });

  it('past the last page, leads back to the first page of the same filters', async () => {
    lists.listJobs.mockResolvedValue({ items: [], totalCount: 14, page: 9, totalPages: 2 });
    await show({ location: 'remote', page: '9' });
    expect(
      within(screen.getByRole('status')).getByRole('link', { name: '1 ページ目に戻る' }),
    ).toHaveAttribute('href', '/jobs?location=remote');
  });

  it('indexes only the unfiltered first page; every variant names /jobs as canonical', async () => {
    const meta = (query: Record<string, string>) =>
      generateMetadata({ searchParams: Promise.resolve(query) });
    expect(await meta({})).toMatchObject({ title: '求人', path: '/jobs', noIndex: false });
    expect(await meta({ page: '2' })).toMatchObject({ path: '/jobs', noIndex: true });
    expect(await meta({ location: '東京都', partner: 'p-a' })).toMatchObject({
      title: '株式会社エー・東京都の求人',
      path: '/jobs',
      noIndex: true,
    });
    // A value outside the options is no filter at all.
    expect(await meta({ type: 'x' })).toMatchObject({ title: '求人', noIndex: false });
  });
});
