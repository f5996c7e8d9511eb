// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ContentListProps, ContentListRow } from '@/lib/admin-content';
import type { EndpointDef } from '@/lib/cms/model';
import { ContentList } from './content-list';
import { expectLinkTo } from '@test-support/links';

const posts: EndpointDef = {
  endpoint: 'posts',
  label: '記事',
  kind: 'list',
  fields: [{ id: 'title', label: 'タイトル', kind: 'text' }],
};

const row = (over: Partial<ContentListRow> = {}): ContentListRow => ({
  id: 'p1',
  title: '展示のレポート',
  status: 'published',
  scheduledAt: null,
  updatedAt: '2026-11-24T01:00:00.000Z',
  publishedAt: '2026-11-20T00:00:00.000Z',
  updatedBy: '佐藤',
  ...over,
});

const props = (over: Partial<ContentListProps> = {}): ContentListProps => ({
  def: posts,
  rows: [row()],
  totalCount: 1,
  perPage: 20,
  query: { q: '', status: '', category: '', sort: 'updated', page: 1 },
  categories: [{ id: 'c1', label: '素材の特集', status: 'published' }],
  ...over,
});

describe('ContentList', () => {
  it('offers a plain GET filter form with search, status, category and sort', () => {
    render(
      <ContentList
        {...props({
          query: { q: '木', status: 'changed', category: 'c1', sort: 'title', page: 1 },
        })}
      />,
    );
    const form = screen.getByRole('search', { name: '記事の絞り込み' });
    expect(form).toHaveAttribute('method', 'get');
    expect(form).toHaveAttribute('action', '/admin/content/posts');
    expect(within(form).getByLabelText('検索')).toHaveAttribute('name', 'q');
    expect(within(form).getByLabelText('検索')).toHaveValue('木');
    expect(within(form).getByLabelText('状態')).toHaveValue('changed');
    expect(
      within(within(form).getByLabelText('状態'))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['すべて', '下書き', '予約公開', '公開中', '未公開の変更あり']);
    expect(within(form).getByLabelText('特集')).toHaveValue('c1');
    expect(within(form).getByLabelText('並び順')).toHaveValue('title');
    expectLinkTo('条件をクリア', '/admin/content/posts', within(form));
  });

  it('has no category filter where the endpoint has none', () => {
    render(<ContentList {...props({ categories: null })} />);
    expect(screen.queryByLabelText('特集')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '条件をクリア' })).not.toBeInTheDocument();
  });

  it('lists items with their status, times in Japan time and who updated them', () => {
    render(
      <ContentList
        {...props({
          rows: [
            row(),
            row({
              id: 'p2',
              title: '',
              status: 'scheduled',
              scheduledAt: '2026-12-01T01:00:00.000Z',
              publishedAt: null,
              updatedBy: null,
            }),
          ],
          totalCount: 2,
        })}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('記事: 2件');
    const [first, second] = screen.getAllByRole('row').slice(1);
    expectLinkTo('展示のレポート', '/admin/content/posts/p1', within(first!));
    expect(first).toHaveTextContent('公開中');
    expect(first).toHaveTextContent('2026年11月24日 10:00佐藤');
    expect(within(second!).getByRole('link')).toHaveTextContent('（タイトルなし: p2）');
    expect(second).toHaveTextContent('予約公開 2026年12月1日 10:00');
    expect(second).toHaveTextContent('未公開');
    expectLinkTo('新規作成', '/admin/content/posts/new');
  });

  it('says when nothing matches the filters and offers to clear them', () => {
    render(
      <ContentList
        {...props({
          rows: [],
          totalCount: 0,
          query: { q: '無い', status: '', category: '', sort: 'updated', page: 1 },
        })}
      />,
    );
    expect(screen.getByText('条件に一致する記事はありません。')).toBeInTheDocument();
    expectLinkTo('条件をクリアしてすべて表示', '/admin/content/posts');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when there is nothing yet and offers to write the first', () => {
    render(<ContentList {...props({ rows: [], totalCount: 0 })} />);
    expect(screen.getByText('記事はまだありません。')).toBeInTheDocument();
    expectLinkTo('最初の記事を作成する', '/admin/content/posts/new');
  });

  it('pages with the filters kept', () => {
    render(
      <ContentList
        {...props({
          totalCount: 45,
          query: { q: '木', status: 'draft', category: '', sort: 'published', page: 2 },
        })}
      />,
    );
    const nav = screen.getByRole('navigation', { name: '記事一覧のページ送り' });
    expectLinkTo(
      '3 ページ目',
      '/admin/content/posts?q=%E6%9C%A8&status=draft&sort=published&page=3',
      within(nav),
    );
    expect(screen.getByText('2 / 3 ページ')).toBeInTheDocument();
  });

  it('lets staff check rows (each labelled by its title) and choose a bulk action on a plain GET form', async () => {
    const user = userEvent.setup();
    render(
      <ContentList {...props({ rows: [row(), row({ id: 'p2', title: '二つ目' })], bulk: true })} />,
    );
    const form = screen.getByRole('form', { name: '記事の一括操作' });
    expect(form).toHaveAttribute('method', 'get');
    expect(form).toHaveAttribute('action', '/admin/content/posts/bulk');
    expect(within(form).getByLabelText('選んだ項目を')).toHaveAttribute('name', 'action');
    const first = screen.getByRole('checkbox', { name: '「展示のレポート」を選択' });
    expect(first).toHaveAttribute('form', 'content-bulk');
    expect(first).toHaveAttribute('name', 'ids');
    await user.click(screen.getByRole('checkbox', { name: 'このページの項目をすべて選択' }));
    expect(first).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '「二つ目」を選択' })).toBeChecked();
  });

  it('offers no selection to a contributor', () => {
    render(<ContentList {...props({ bulk: false })} />);
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByRole('form', { name: '記事の一括操作' })).toBeNull();
  });
});
