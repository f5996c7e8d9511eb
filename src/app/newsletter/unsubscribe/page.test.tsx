// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const server = vi.hoisted(() => ({ unsubscribeTarget: vi.fn() }));
vi.mock('server-only', () => ({}));
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));
vi.mock('@/components/account/metadata', () => ({ accountMetadata: () => ({}) }));
vi.mock('@/server/features/newsletter/unsubscribe-http', () => ({
  INVALID_TOKEN_MESSAGE: '配信停止のリンクが正しくありません。',
  unsubscribeTarget: server.unsubscribeTarget,
}));

import UnsubscribePage from './page';

const page = (query: Record<string, string>) =>
  UnsubscribePage({ searchParams: Promise.resolve(query) });

beforeEach(() => {
  server.unsubscribeTarget.mockResolvedValue({
    userId: 'u1',
    maskedEmail: 'h***@example.jp',
    subscribed: true,
  });
});

describe('/newsletter/unsubscribe', () => {
  it('shows the masked address and a button that posts, never unsubscribing on the GET', async () => {
    render(await page({ token: 'tok' }));
    expect(screen.getByText(/h\*\*\*@example\.jp 宛て/)).toBeInTheDocument();
    const form = screen.getByRole('button', { name: '配信を停止する' }).closest('form');
    expect(form).toHaveAttribute('method', 'post');
    expect(form).toHaveAttribute('action', '/api/newsletter/unsubscribe?token=tok');
  });

  it('says it is done, with the way back', async () => {
    server.unsubscribeTarget.mockResolvedValue({
      userId: 'u1',
      maskedEmail: 'h***@example.jp',
      subscribed: false,
    });
    render(await page({ token: 'tok', done: '1' }));
    expect(screen.getByRole('heading', { name: '配信を停止しました' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /再開する/ })).toHaveAttribute('href', '/account');
  });

  it('explains a link that does not verify', async () => {
    server.unsubscribeTarget.mockResolvedValue(null);
    render(await page({ token: 'forged' }));
    expect(screen.getByRole('alert')).toHaveTextContent('配信停止のリンクが正しくありません');
    expect(screen.queryByRole('button')).toBeNull();
  });
});
