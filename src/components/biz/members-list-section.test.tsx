// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import { MembersListSection } from './members-list-section';

const MEMBERS = [
  { userId: 'u1', displayName: '山田 花子', email: 'hanako@example.jp' },
  { userId: 'u2', displayName: '佐藤 一郎', email: 'ichiro@example.jp' },
];

describe('MembersListSection', () => {
  it('lists each member by name and address, with the staff action beside each', () => {
    render(
      <MembersListSection
        members={MEMBERS}
        footer={null}
        rowAction={(member) => <button type="button">外す：{member.email}</button>}
      />,
    );
    expect(screen.getByRole('heading', { name: 'メンバー 2人' })).toBeInTheDocument();
    const rows = screen.getAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('山田 花子')).toBeInTheDocument();
    expect(within(rows[0]!).getByRole('button', { name: '外す：hanako@example.jp' })).toBeVisible();
  });

  it('says so when there are none, with the footer still shown', () => {
    render(<MembersListSection members={[]} footer={<p>担当者にご連絡ください。</p>} />);
    expect(screen.getByText('メンバーはまだいません。')).toBeInTheDocument();
    expect(screen.getByText('担当者にご連絡ください。')).toBeInTheDocument();
    expect(screen.queryByRole('listitem')).toBeNull();
  });
});
