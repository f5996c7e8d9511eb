// @vitest-environment jsdom
/* eslint-disable @next/next/no-html-link-for-pages -- plain anchors stand in for the links the listener sees */
import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const route = { pathname: '/', search: '' };
vi.mock('next/navigation', () => ({
  usePathname: () => route.pathname,
  useSearchParams: () => new URLSearchParams(route.search),
}));

const { NavigationProgress } = await import('./navigation-progress.client');

function click(element: Element, init: MouseEventInit = {}) {
  element.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, ...init }));
}

describe('NavigationProgress', () => {
  beforeEach(() => {
    route.pathname = '/';
    route.search = '';
    document.body.innerHTML = '';
  });

  it('shows a status from a click on a link of this site until the new page is shown', () => {
    const tree = () => (
      <>
        <NavigationProgress />
        {/* As the framework's links do: the click is cancelled and the router navigates. */}
        <a href="/posts?page=2" onClick={(e) => e.preventDefault()}>
          次へ
        </a>
      </>
    );
    const view = render(tree());
    act(() => click(screen.getByRole('link', { name: '次へ' })));
    expect(screen.getByRole('status')).toHaveTextContent('読み込み中');
    route.pathname = '/posts';
    route.search = 'page=2';
    view.rerender(tree());
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('stays quiet for other sites, new tabs, modified clicks and the same page', () => {
    render(
      <>
        <NavigationProgress />
        <a href="https://example.com/" onClick={(e) => e.preventDefault()}>
          外部
        </a>
        <a href="/posts" target="_blank" onClick={(e) => e.preventDefault()}>
          新しいタブ
        </a>
        <a href="/posts" onClick={(e) => e.preventDefault()}>
          記事
        </a>
        <a href="/#main" onClick={(e) => e.preventDefault()}>
          本文へ
        </a>
      </>,
    );
    act(() => click(screen.getByRole('link', { name: '外部' })));
    act(() => click(screen.getByRole('link', { name: '新しいタブ' })));
    act(() => click(screen.getByRole('link', { name: '記事' }), { metaKey: true }));
    act(() => click(screen.getByRole('link', { name: '本文へ' })));
    expect(screen.queryByRole('status')).toBeNull();
  });
});
