import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  bookmarkState,
  resetBookmarkStoreForTests,
  saveBookmark,
  subscribeBookmark,
  syncBookmarkUser,
} from './bookmark-store';

const ref = { endpoint: 'posts', contentId: 'p1' } as const;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

beforeEach(() => resetBookmarkStoreForTests());
afterEach(() => vi.unstubAllGlobals());

describe('the bookmark store', () => {
  it('sends quick changes of one item one after another; the last one decides', async () => {
    const answers: ((response: Response) => void)[] = [];
    const bodies: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init?: RequestInit) => {
        bodies.push(JSON.parse(init?.body as string));
        return new Promise<Response>((resolve) => answers.push(resolve));
      }),
    );
    const first = saveBookmark('posts:p1', ref, true, false);
    const second = saveBookmark('posts:p1', ref, false, true);
    expect(bookmarkState('posts:p1')).toBe(false);
    await tick();
    // The second waits until the first has been answered.
    expect(answers).toHaveLength(1);
    answers[0]!(Response.json({ message: '失敗' }, { status: 500 }));
    expect(await first).toEqual({ ok: false, status: 500, message: '失敗' });
    // A later change is still on its way: the screen keeps showing it.
    expect(bookmarkState('posts:p1')).toBe(false);
    await tick();
    expect(answers).toHaveLength(2);
    answers[1]!(Response.json({ ok: true }));
    expect(await second).toEqual({ ok: true });
    expect(bookmarkState('posts:p1')).toBe(false);
    expect(bodies).toEqual([
      { ...ref, action: 'add' },
      { ...ref, action: 'remove' },
    ]);
  });

  it('keeps a saved change when a read asked before it is answered after it', async () => {
    const reads: ((response: Response) => void)[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((_url: string, init?: RequestInit) =>
        init?.method === 'POST'
          ? Promise.resolve(Response.json({ ok: true }))
          : new Promise<Response>((resolve) => reads.push(resolve)),
      ),
    );
    subscribeBookmark('posts:p1', () => {});
    await tick();
    expect(reads).toHaveLength(1);
    expect(await saveBookmark('posts:p1', ref, true, false)).toEqual({ ok: true });
    // The read went out before the save: its "not bookmarked" is older than what was saved.
    reads[0]!(Response.json({ bookmarked: [] }));
    await tick();
    expect(bookmarkState('posts:p1')).toBe(true);
  });

  it('reads the state again when another user signs in (in another tab)', async () => {
    let saved: string[] = [];
    const fetch = vi.fn(() => Promise.resolve(Response.json({ bookmarked: saved })));
    vi.stubGlobal('fetch', fetch);
    const listener = vi.fn();
    subscribeBookmark('posts:p1', listener);
    syncBookmarkUser(null);
    await tick();
    expect(bookmarkState('posts:p1')).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(1);

    syncBookmarkUser(null);
    await tick();
    expect(fetch).toHaveBeenCalledTimes(1);

    saved = ['posts:p1'];
    syncBookmarkUser('u1');
    await tick();
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(bookmarkState('posts:p1')).toBe(true);
    expect(listener).toHaveBeenCalled();
  });
});
