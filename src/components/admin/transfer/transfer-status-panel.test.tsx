// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { TransferStatus } from '@/lib/transfer/status';
import { progressShare } from '@/lib/transfer/status';
import { TransferStatusPanel } from './transfer-status-panel';

const labels = { posts: '記事', tags: 'タグ' };
const base: TransferStatus = {
  id: 'job',
  kind: 'microcms',
  source: 'svc.microcms.io',
  phase: 'contents',
  endpoint: 'posts',
  items: { done: 50, total: 100 },
  media: { done: 0, total: 0 },
  warnings: 0,
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: null,
  result: null,
  error: null,
  warningList: [],
};

describe('TransferStatusPanel', () => {
  it('shows a labelled progress bar while running', () => {
    render(<TransferStatusPanel status={base} endpointLabels={labels} />);
    const bar = screen.getByRole('progressbar', {
      name: /コンテンツを読み込んでいます（記事）：25%/,
    });
    expect(bar).toHaveAttribute('value', '25');
    expect(screen.getByRole('status')).toHaveTextContent('コンテンツ 50 / 100 件');
  });

  it('shows the counts per endpoint when done', () => {
    render(
      <TransferStatusPanel
        status={{
          ...base,
          phase: 'done',
          finishedAt: '2026-01-01T00:01:00.000Z',
          result: { contents: { posts: 3, tags: 2 }, media: 4, versions: 0, files: 4 },
          warningList: ['画像が見つかりません'],
        }}
        endpointLabels={labels}
      />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('コンテンツ 5 件・メディア 4 件');
    expect(screen.getByRole('row', { name: /記事 \(posts\) 3/ })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /タグ \(tags\) 2/ })).toBeInTheDocument();
    expect(screen.getByText('注意 1 件（取り込みは完了しています）')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('says why nothing came in when it failed', () => {
    render(
      <TransferStatusPanel
        status={{ ...base, phase: 'failed', error: 'API キーを受け付けませんでした' }}
        endpointLabels={labels}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(
      '取り込めませんでした。何も取り込んでいません。API キーを受け付けませんでした',
    );
  });
});

describe('progressShare', () => {
  it('counts reading as half and the files as the rest', () => {
    expect(progressShare({ ...base, phase: 'counting' })).toBe(0);
    expect(progressShare(base)).toBe(0.25);
    expect(progressShare({ ...base, phase: 'media', media: { done: 1, total: 2 } })).toBeCloseTo(
      0.725,
    );
    expect(progressShare({ ...base, phase: 'done' })).toBe(1);
  });
});
