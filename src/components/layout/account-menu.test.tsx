// @vitest-environment jsdom
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthStateProvider } from '@/components/account/auth-state.client';
import { SIGNED_OUT_AUTH_STATE } from '@/lib/auth-state';
import { AccountMenu } from './account-menu.client';

vi.mock('next/navigation', () => ({
  usePathname: () => '/posts/p1',
  useRouter: () => ({ push: vi.fn(), refresh: vi.fn() }),
}));

const MEMBER = {
  ...SIGNED_OUT_AUTH_STATE,
  user: { uid: 'u1', displayName: '読者 花子', partnerId: '', email: 'h@example.jp' },
  role: 'member',
};

function renderWith(me: object) {
  vi.stubGlobal(
    'fetch',
    vi.fn(() => Promise.resolve(Response.json(me))),
  );
  return render(
    <AuthStateProvider>
      <AccountMenu />
    </AuthStateProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('AccountMenu', () => {
  it('offers sign-in and sign-up back to this page to a visitor', async () => {
    renderWith({ ...MEMBER, user: null, role: null });
    expect(await screen.findByRole('link', { name: 'ログイン' })).toHaveAttribute(
      'href',
      '/login?next=%2Fposts%2Fp1',
    );
    expect(screen.getByRole('link', { name: '会員登録' })).toHaveAttribute(
      'href',
      '/sign-up?next=%2Fposts%2Fp1',
    );
  });

  it('names a free member’s plan and full name in the open menu', async () => {
    renderWith(MEMBER);
    // The avatar is decoration: the button is named by the member's name alone.
    const trigger = await screen.findByRole('button', { name: '読者 花子' });
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(trigger);
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    const menu = document.getElementById(trigger.getAttribute('aria-controls')!)!;
    expect(within(menu).getByText('読者 花子')).toBeInTheDocument();
    expect(within(menu).getByText('無料会員')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'ブックマーク' })).toHaveAttribute(
      'href',
      '/posts/bookmark',
    );
    expect(screen.queryByRole('link', { name: '管理画面' })).toBeNull();
  });

  it('shows a paid member’s badge in the header and the plan in the menu', async () => {
    renderWith({ ...MEMBER, isPaidUser: true, role: 'editor' });
    const trigger = await screen.findByRole('button', { name: /読者 花子/ });
    expect(trigger).toHaveTextContent('有料会員');
    await userEvent.click(trigger);
    expect(screen.getAllByText('有料会員')).toHaveLength(2);
    expect(screen.getByRole('link', { name: '管理画面' })).toHaveAttribute('href', '/admin');
  });

  it('shows the member’s picture as the avatar, or else the first letter of the name', async () => {
    const { unmount } = renderWith({
      ...MEMBER,
      user: { ...MEMBER.user, avatarUrl: '/uploads/images/me.png' },
    });
    const trigger = await screen.findByRole('button', { name: '読者 花子' });
    expect(trigger.querySelector('img')).toHaveAttribute('src', '/uploads/images/me.png');
    unmount();
    renderWith(MEMBER);
    const plain = await screen.findByRole('button', { name: '読者 花子' });
    expect(plain.querySelector('img')).toBeNull();
    expect(plain).toHaveTextContent(/^読/);
  });

  it('closes on Escape and gives the focus back to its button', async () => {
    renderWith(MEMBER);
    const trigger = await screen.findByRole('button', { name: '読者 花子' });
    await userEvent.click(trigger);
    expect(screen.getByRole('link', { name: 'アカウント設定' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('link', { name: 'アカウント設定' })).toBeNull();
    expect(trigger).toHaveFocus();
  });
});
