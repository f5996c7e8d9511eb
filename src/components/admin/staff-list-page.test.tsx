// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  StaffFilter,
  StaffList,
  StaffPageHead,
  type StaffSearch,
  StaffSearchInput,
} from './staff-list-page';

/** A search by 検索語, filtered or not, cleared by the link named `clearLabel`. */
function search(clearLabel: string, filtered: boolean): StaffSearch {
  return {
    filters: (
      <StaffFilter id="q" label="検索語">
        <StaffSearchInput id="q" defaultValue="" />
      </StaffFilter>
    ),
    submitLabel: '検索',
    filtered,
    clearLabel,
  };
}

function list(options: { filtered: boolean; empty: string | null }) {
  return (
    <>
      <StaffPageHead title="ユーザー" lead="説明" />
      <StaffList
        path="/admin/users"
        search={search('検索を解除', options.filtered)}
        count="3人"
        empty={options.empty}
        pagination={{ page: 1, totalPages: 1, label: 'ページ送り' }}
      >
        <ul aria-label="行" />
      </StaffList>
    </>
  );
}

describe('StaffList', () => {
  it('shows the heading, the labelled search, the count and the rows', () => {
    render(list({ filtered: false, empty: null }));
    expect(screen.getByRole('heading', { level: 1, name: 'ユーザー' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '管理画面' })).toHaveAttribute('href', '/admin');
    expect(screen.getByRole('search')).toHaveAttribute('action', '/admin/users');
    expect(screen.getByRole('searchbox', { name: '検索語' })).toHaveAttribute('name', 'q');
    expect(screen.getByRole('status')).toHaveTextContent('3人');
    expect(screen.getByRole('list', { name: '行' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: '検索を解除' })).toBeNull();
  });

  it('offers to clear a filter, and says when there is nothing instead of the rows', () => {
    render(list({ filtered: true, empty: '一致するユーザーはいません。' }));
    expect(screen.getByRole('link', { name: '検索を解除' })).toHaveAttribute(
      'href',
      '/admin/users',
    );
    expect(screen.getByText('一致するユーザーはいません。')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: '行' })).toBeNull();
  });

  it('on a screen of several lists, keeps the other list’s page and comes back to its anchor', () => {
    render(
      <StaffList
        path="/biz/axis-admin"
        fragment="partners"
        search={{
          ...search('検索をやめる', true),
          label: 'パートナー企業の検索',
          keep: { ipage: '2', other: undefined },
        }}
        empty={
          <>
            <p>一致する企業はありません。</p>
          </>
        }
        emptyAs="div"
        pagination={{ page: 1, totalPages: 2, label: 'ページ送り' }}
      >
        <ul aria-label="行" />
      </StaffList>,
    );
    const form = screen.getByRole('search', { name: 'パートナー企業の検索' });
    expect(form).toHaveAttribute('action', '/biz/axis-admin#partners');
    expect(form.querySelectorAll('input[type="hidden"]')).toHaveLength(1);
    expect(form.querySelector('input[type="hidden"]')).toHaveAttribute('name', 'ipage');
    expect(screen.getByRole('link', { name: '検索をやめる' })).toHaveAttribute(
      'href',
      '/biz/axis-admin#partners',
    );
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.getByText('一致する企業はありません。').parentElement?.tagName).toBe('DIV');
    expect(screen.getByRole('link', { name: '2 ページ目' })).toHaveAttribute(
      'href',
      '/biz/axis-admin?page=2#partners',
    );
  });
});
