// @vitest-environment jsdom
import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Viewer } from '@/lib/access/post-access';

const server = vi.hoisted(() => ({ freeMembersWrite: vi.fn(), listItemComments: vi.fn() }));
vi.mock('server-only', () => ({}));
vi.mock('@/server/features/comments', () => server);
vi.mock('@/server/platform/db/client', () => ({ getDb: () => Promise.resolve({}) }));
vi.mock('@/server/platform/http/read-flash', () => ({ readFlash: () => Promise.resolve(null) }));

import { CommentsSection } from './comments-section';

beforeEach(() => {
  vi.clearAllMocks();
  server.listItemComments.mockResolvedValue([]);
});

async function formShownTo(viewer: Viewer, freeMembersMayWrite: boolean) {
  server.freeMembersWrite.mockResolvedValue(freeMembersMayWrite);
  const { unmount } = render(
    await CommentsSection({ endpoint: 'posts', contentId: 'post-1', viewer }),
  );
  const shown = screen.queryByRole('textbox', { name: 'コメントを書く' }) !== null;
  unmount();
  return shown;
}

describe('who is given the comment form', () => {
  it('staff and paid members always, without reading the free members’ setting', async () => {
    for (const open of [false, true]) {
      expect(await formShownTo({ kind: 'staff' }, open)).toBe(true);
      expect(await formShownTo({ kind: 'member', paid: true }, open)).toBe(true);
    }
    expect(server.freeMembersWrite).not.toHaveBeenCalled();
  });

  it('a free member only while an admin has opened it; a visitor never', async () => {
    expect(await formShownTo({ kind: 'member', paid: false }, false)).toBe(false);
    expect(await formShownTo({ kind: 'member', paid: false }, true)).toBe(true);
    expect(server.freeMembersWrite).toHaveBeenCalledTimes(2);
    expect(await formShownTo({ kind: 'anonymous' }, true)).toBe(false);
  });
});
