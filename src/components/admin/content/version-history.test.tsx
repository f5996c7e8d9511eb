// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { HistoryProps, VersionRow } from '@/lib/admin-content';
import { findEndpoint } from '@/lib/cms/model';
import { VersionHistory } from './version-history';

// The site's own posts endpoint: its title and body are what the comparisons below change.
const def = findEndpoint('posts')!;

const version = (id: number, over: Partial<VersionRow> = {}): VersionRow => ({
  id,
  action: 'save',
  actor: '佐藤',
  createdAt: `2026-11-2${id}T01:00:00.000Z`,
  status: 'DRAFT',
  ...over,
});

const versions = [
  version(3, { action: 'publish', status: 'PUBLISH' }),
  version(2),
  version(1, { action: 'create' }),
];

const props = (over: Partial<HistoryProps> = {}): HistoryProps => ({
  def,
  endpoint: 'posts',
  id: 'p1',
  title: '展示のレポート',
  versions,
  compare: null,
  ...over,
});

describe('VersionHistory', () => {
  it('lists the versions and chooses the newest and the one before to compare by default', () => {
    render(<VersionHistory {...props()} />);
    const items = screen.getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('公開（最新）');
    expect(items[0]).toHaveTextContent('2026年11月23日 10:00・佐藤・公開中');
    expect(screen.getByRole('radio', { name: /^比較先: 2026年11月23日 10:00 公開/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^比較元: 2026年11月22日 10:00 保存/ })).toBeChecked();
    const compare = document.getElementById('history-compare');
    expect(compare).toHaveAttribute('method', 'get');
    expect(compare).toHaveAttribute('action', '/admin/content/posts/p1/history');
    for (const radio of screen.getAllByRole('radio'))
      expect(radio).toHaveAttribute('form', 'history-compare');
  });

  it('restores any earlier version through a plain form', () => {
    render(<VersionHistory {...props()} />);
    const buttons = screen.getAllByRole('button', { name: /^この版に戻す/ });
    // The newest version is the current content: nothing to go back to.
    expect(buttons).toHaveLength(2);
    const form = buttons[0]!.closest('form')!;
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/admin/content/posts/p1/restore');
    expect(within(form).getByDisplayValue('2')).toHaveAttribute('name', 'version');
  });

  it('shows what changed between two versions, marked in words', () => {
    render(
      <VersionHistory
        {...props({
          compare: {
            from: { ...version(1), data: { title: 'A', body: '<p>一。二。</p>' } },
            to: { ...version(3), data: { title: 'A', body: '<p>一。三。</p>' } },
          },
        })}
      />,
    );
    const section = screen.getByRole('region', { name: '比較' });
    expect(within(section).getByRole('heading', { name: '本文' })).toBeInTheDocument();
    expect(within(section).queryByRole('heading', { name: 'タイトル' })).not.toBeInTheDocument();
    // Only the changed character is marked, its words hidden from sight but read out.
    expect(section.querySelector('del')).toHaveTextContent('［削除］二［削除ここまで］');
    expect(section.querySelector('ins')).toHaveTextContent('［追加］三［追加ここまで］');
    expect(section.querySelector('del span')).toHaveClass(/srOnly/);
    expect(screen.getByRole('radio', { name: /^比較元: 2026年11月21日/ })).toBeChecked();
  });

  it('shows a fixed link in words: the old and the new address', () => {
    const link = (href: string) => `<p>詳しくは<a href="${href}">公式サイト</a>へ。</p>`;
    render(
      <VersionHistory
        {...props({
          compare: {
            from: { ...version(1), data: { title: 'A', body: link('https://exmaple.com/') } },
            to: { ...version(3), data: { title: 'A', body: link('https://example.com/') } },
          },
        })}
      />,
    );
    const section = screen.getByRole('region', { name: '比較' });
    expect(section.querySelector('ins, del')).toBeNull();
    expect(section).toHaveTextContent(
      '詳しくは［書式の変更］公式サイト（リンク: https://exmaple.com/ → リンク: https://example.com/）［書式の変更ここまで］へ。',
    );
  });

  it('says so when two versions are the same', () => {
    render(
      <VersionHistory
        {...props({
          compare: {
            from: { ...version(2), data: { title: 'A' } },
            to: { ...version(3), data: { title: 'A', body: '' } },
          },
        })}
      />,
    );
    expect(screen.getByText('変更はありません。')).toBeInTheDocument();
  });

  it('has an empty state', () => {
    render(<VersionHistory {...props({ versions: [] })} />);
    expect(screen.getByText('まだ記録された版はありません。')).toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
  });
});
