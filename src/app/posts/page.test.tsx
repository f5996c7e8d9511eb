// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const lists = vi.hoisted(() => ({
  listPosts: vi.fn(),
  listCategories: vi.fn(),
  listTags: vi.fn(),
}));
vi.mock('@/server/features/content/lists', () => lists);
vi.mock('@/components/listing/site-metadata', () => ({
  sitePageMetadata: (input: { title: string; noIndex?: boolean }) => input,
}));

import PostsPage, { generateMetadata } from './page';

const params = (query: Record<string, string>) => Promise.resolve(query);

async function show(query: Record<string, string>) {
  render(await PostsPage({ searchParams: params(query) }));
}

beforeEach(() => {
  lists.listCategories.mockResolvedValue([
    { id: 'issue-a', name: '特集A' },
    { id: 'issue-b', name: '特集B' },
  ]);
  lists.listTags.mockResolvedValue([{ id: 'city', name: '都市' }]);
  lists.listPosts.mockResolvedValue({ items: [], totalCount: 30, page: 1, totalPages: 3 });
});

const categoryNav = () => screen.getByRole('navigation', { name: '特集で絞り込む' });
const current = () =>
  within(categoryNav())
    .getAllByRole('link')
    .filter((a) => a.getAttribute('aria-current') === 'true')
    .map((a) => a.textContent);

describe('/posts filters', () => {
  it('without a filter: すべて is current, no active-filter list', async () => {
    await show({});
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^記事$/);
    expect(current()).toEqual(['すべて']);
    expect(screen.queryByRole('list', { name: '絞り込み中の条件' })).toBeNull();
  });

  it('with a tag: shows it with a clear link, category links keep it, すべて is not current', async () => {
    await show({ tag: 'city' });
    expect(lists.listPosts).toHaveBeenCalledWith({ page: 1, category: undefined, tag: 'city' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('タグ「都市」の記事');
    expect(current()).toEqual([]);
    expect(within(categoryNav()).getByRole('link', { name: 'すべて' })).toHaveAttribute(
      'href',
      '/posts',
    );
    expect(within(categoryNav()).getByRole('link', { name: '特集A' })).toHaveAttribute(
      'href',
      '/posts?category=issue-a&tag=city',
    );
    const active = screen.getByRole('list', { name: '絞り込み中の条件' });
    const clear = within(active).getByRole('link', { name: 'タグ: 都市 の絞り込みを解除' });
    expect(clear).toHaveTextContent('タグ: 都市');
    expect(clear).toHaveAttribute('href', '/posts');
    const paging = screen.getByRole('navigation', { name: 'ページ送り' });
    expect(within(paging).getByRole('link', { name: '2 ページ目' })).toHaveAttribute(
      'href',
      '/posts?tag=city&page=2',
    );
  });

  it('with both: the category is current, each clear link keeps the other filter, paging keeps both', async () => {
    await show({ category: 'issue-b', tag: 'city' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      '特集「特集B」・タグ「都市」の記事',
    );
    expect(current()).toEqual(['特集B']);
    const active = screen.getByRole('list', { name: '絞り込み中の条件' });
    expect(
      within(active).getByRole('link', { name: 'タグ: 都市 の絞り込みを解除' }),
    ).toHaveAttribute('href', '/posts?category=issue-b');
    expect(
      within(active).getByRole('link', { name: '特集: 特集B の絞り込みを解除' }),
    ).toHaveAttribute('href', '/posts?tag=city');
    const paging = screen.getByRole('navigation', { name: 'ページ送り' });
    expect(within(paging).getByRole('link', { name: '3 ページ目' })).toHaveAttribute(
      'href',
      '/posts?category=issue-b&tag=city&page=3',
    );
  });

  it('an unknown tag still renders a normal page with a way out', async () => {
    lists.listPosts.mockResolvedValue({ items: [], totalCount: 0, page: 1, totalPages: 1 });
    await show({ tag: 'nope', page: '999' });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(/^記事$/);
    expect(screen.getByRole('link', { name: 'タグ: 不明なタグ の絞り込みを解除' })).toHaveAttribute(
      'href',
      '/posts',
    );
    expect(screen.getByRole('status')).toHaveTextContent('条件に合う記事はまだありません。');
  });

  it('titles the metadata by the filters and indexes only the unfiltered first page', async () => {
    expect(await generateMetadata({ searchParams: params({}) })).toMatchObject({
      title: '記事',
      noIndex: false,
    });
    expect(
      await generateMetadata({
        searchParams: params({ category: 'issue-a', tag: 'city', page: '2' }),
      }),
    ).toMatchObject({ title: '特集「特集A」・タグ「都市」の記事（2 ページ目）', noIndex: true });
  });
});
