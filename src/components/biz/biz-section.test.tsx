// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { BizListSection } from './biz-section';

describe('BizListSection', () => {
  it('counts its items beside the heading and shows the list', () => {
    render(
      <BizListSection id="members" title="メンバー" items={['a', 'b']} unit="人" empty="いません。">
        <ul aria-label="一覧" />
      </BizListSection>,
    );
    expect(screen.getByRole('heading', { name: 'メンバー 2人' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: '一覧' })).toBeInTheDocument();
    expect(screen.queryByText('いません。')).toBeNull();
  });

  it('counts all there are over the pages, and says so when a page shows none', () => {
    render(
      <BizListSection
        id="partners"
        title="企業"
        items={[]}
        total={31}
        unit="社"
        empty="ありません。"
      >
        <ul aria-label="一覧" />
      </BizListSection>,
    );
    expect(screen.getByRole('heading', { name: '企業 31社' })).toBeInTheDocument();
    expect(screen.getByText('ありません。')).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: '一覧' })).toBeNull();
  });
});
