// @vitest-environment jsdom
/* eslint-disable @next/next/no-html-link-for-pages -- plain anchors stand in for the links the listeners see */
import { act, render, screen } from '@testing-library/react';
import { renderToStaticMarkup } from 'react-dom/server';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Link } from './site-link';

const router = vi.hoisted(() => ({ push: vi.fn(), prefetch: vi.fn(), pathname: '/', search: '' }));
vi.mock('next/navigation', () => ({
  useRouter: () => router,
  usePathname: () => router.pathname,
  useSearchParams: () => new URLSearchParams(router.search),
}));

const { LinkNavigator, NavigationProgress } = await import('./site-navigation.client');

/**
 * A click as a browser sends it; whether the page's listeners kept the page (prevented the
 * default). Then the default is prevented anyway: jsdom cannot follow a link.
 */
function click(element: Element, init: MouseEventInit = {}) {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, ...init });
  let kept = false;
  const last = (e: Event) => {
    kept = e.defaultPrevented;
    e.preventDefault();
  };
  window.addEventListener('click', last, { once: true });
  element.dispatchEvent(event);
  window.removeEventListener('click', last);
  return kept;
}
const link = (name: string) => screen.getByRole('link', { name });

describe('NavigationProgress', () => {
  beforeEach(() => {
    router.pathname = '/';
    router.search = '';
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
    act(() => void click(screen.getByRole('link', { name: '次へ' })));
    expect(screen.getByRole('status')).toHaveTextContent('読み込み中');
    router.pathname = '/posts';
    router.search = 'page=2';
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
    act(() => void click(screen.getByRole('link', { name: '外部' })));
    act(() => void click(screen.getByRole('link', { name: '新しいタブ' })));
    act(() => void click(screen.getByRole('link', { name: '記事' }), { metaKey: true }));
    act(() => void click(screen.getByRole('link', { name: '本文へ' })));
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('Link', () => {
  it('is a plain anchor marked for the navigator, with what it was given', () => {
    expect(
      renderToStaticMarkup(
        <Link href="/posts" className="x" aria-current="page">
          記事
        </Link>,
      ),
    ).toBe('<a href="/posts" class="x" aria-current="page" data-nav="">記事</a>');
    expect(
      renderToStaticMarkup(
        <Link href="/service-plans" prefetch={false}>
          プラン
        </Link>,
      ),
    ).toBe('<a href="/service-plans" data-nav="no-prefetch">プラン</a>');
  });
});

describe('LinkNavigator', () => {
  beforeEach(() => {
    router.push.mockClear();
    router.prefetch.mockClear();
    router.pathname = '/';
    window.history.replaceState(null, '', '/');
  });

  const links = () => (
    <>
      <LinkNavigator />
      <Link href="/posts?page=2#top">
        <span>次へ</span>
      </Link>
      <Link href="/service-plans" prefetch={false}>
        プラン
      </Link>
      <Link href="/posts" target="_blank">
        別窓
      </Link>
      <Link href="/feed.xml" download>
        フィード
      </Link>
      <Link href="https://example.com/">外部</Link>
      <Link href="#comments">コメントへ</Link>
      <Link href="/connect" onClick={(e) => e.preventDefault()}>
        取られたクリック
      </Link>
      <a href="/api/receipts/1">領収書</a>
    </>
  );
  const page = () => render(links());

  it('turns a plain click on a link of the site into the router’s navigation', () => {
    page();
    expect(click(screen.getByText('次へ'))).toBe(true);
    expect(router.push).toHaveBeenCalledExactlyOnceWith('/posts?page=2#top');
  });

  it('leaves to the browser every other click', () => {
    page();
    const left = [
      click(link('次へ'), { ctrlKey: true }),
      click(link('次へ'), { metaKey: true }),
      click(link('次へ'), { shiftKey: true }),
      click(link('次へ'), { button: 1 }),
      click(link('別窓')),
      click(link('フィード')),
      click(link('外部')),
      click(link('コメントへ')),
      click(link('領収書')), // no mark: a route handler's answer, not a page
    ];
    expect(left).toEqual(left.map(() => false));
    expect(click(link('取られたクリック'))).toBe(true); // the page's own handler took it
    expect(router.push).not.toHaveBeenCalled();
  });

  it('asks for a page once when a pointer, a touch or the focus comes to its link', () => {
    page();
    act(() => {
      for (const type of ['mouseover', 'touchstart', 'focusin'])
        screen.getByText('次へ').dispatchEvent(new Event(type, { bubbles: true }));
    });
    expect(router.prefetch).toHaveBeenCalledExactlyOnceWith('/posts?page=2');
  });

  it('never asks for a link that must not be prefetched, another site, or this page', () => {
    page();
    for (const name of ['プラン', '外部', 'コメントへ', '領収書'])
      link(name).dispatchEvent(new Event('mouseover', { bubbles: true }));
    expect(router.prefetch).not.toHaveBeenCalled();
  });

  it('asks again on the next page shown', () => {
    const view = page();
    const hover = () => link('次へ').dispatchEvent(new Event('mouseover', { bubbles: true }));
    hover();
    hover();
    expect(router.prefetch).toHaveBeenCalledTimes(1);
    router.pathname = '/connect';
    view.rerender(links());
    hover();
    expect(router.prefetch).toHaveBeenCalledTimes(2);
  });
});
