// @vitest-environment jsdom
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PageViewTracker, TITLE_WAIT_MS } from './page-view-tracker.client';

const navigation = vi.hoisted(() => ({ pathname: '/', search: '' }));
vi.mock('next/navigation', () => ({
  usePathname: () => navigation.pathname,
  useSearchParams: () => new URLSearchParams(navigation.search),
}));

describe('PageViewTracker', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    window.dataLayer = [];
    navigation.pathname = '/';
    navigation.search = '';
    document.title = 'ホーム | サイト';
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pushes a page_view with path and title on the first load', () => {
    render(<PageViewTracker />);
    expect(window.dataLayer).toEqual([
      { event: 'page_view', page_path: '/', page_title: 'ホーム | サイト' },
    ]);
  });

  it('waits for the new title after a route change, with the query in the path', async () => {
    const { rerender } = render(<PageViewTracker />);
    navigation.pathname = '/posts';
    navigation.search = 'page=2';
    rerender(<PageViewTracker />);
    expect(window.dataLayer).toHaveLength(1); // the old title is still there: wait
    await act(async () => {
      document.title = '記事 | サイト';
      await Promise.resolve(); // MutationObserver callbacks run as microtasks
    });
    expect(window.dataLayer).toHaveLength(2);
    expect(window.dataLayer?.[1]).toEqual({
      event: 'page_view',
      page_path: '/posts?page=2',
      page_title: '記事 | サイト',
    });
  });

  it('sends the view anyway when the title does not change in time', () => {
    const { rerender } = render(<PageViewTracker />);
    navigation.pathname = '/posts';
    rerender(<PageViewTracker />);
    act(() => {
      vi.advanceTimersByTime(TITLE_WAIT_MS);
    });
    expect(window.dataLayer?.[1]).toEqual({
      event: 'page_view',
      page_path: '/posts',
      page_title: 'ホーム | サイト',
    });
  });
});
