'use client';

import { usePathname, useRouter } from 'next/navigation';
import { useEffect } from 'react';
import { isCurrentPage, sameSiteLinkOf } from './same-site-link';
import { NAV_ATTRIBUTE, NO_PREFETCH } from './site-link';

const NAV_LINK = `a[${NAV_ATTRIBUTE}]`;

/**
 * The site's links (`Link` of ./site-link) as the router's: a click on one loads the page
 * in this window without reloading the document, and a pointer resting on one, a touch or the
 * keyboard's focus asks the router for it beforehand (once per page shown). One listener for
 * every link of the page; an anchor without the mark, a modified click, another window, a
 * download, another origin or a place on this page is left to the browser.
 */
export function LinkNavigator() {
  const router = useRouter();
  // A new page starts a new set of links asked for.
  const pathname = usePathname();

  useEffect(() => {
    const navLink = (event: MouseEvent) => {
      const link = sameSiteLinkOf(event);
      return link?.anchor.matches(NAV_LINK) ? link : null;
    };
    const onClick = (event: MouseEvent) => {
      // A handler of the page's own (a menu closing, a form's guard) may have taken the click.
      if (event.defaultPrevented) return;
      const link = navLink(event);
      if (!link || (isCurrentPage(link.url) && link.url.hash)) return;
      event.preventDefault();
      router.push(link.url.pathname + link.url.search + link.url.hash);
    };
    const asked = new Set<string>();
    const onIntent = (event: Event) => {
      const anchor = (event.target as Element | null)?.closest?.(NAV_LINK);
      if (!(anchor instanceof HTMLAnchorElement)) return;
      if (anchor.getAttribute(NAV_ATTRIBUTE) === NO_PREFETCH) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin || isCurrentPage(url)) return;
      const path = url.pathname + url.search;
      if (asked.has(path)) return;
      asked.add(path);
      router.prefetch(path);
    };
    const intents = ['mouseover', 'touchstart', 'focusin'] as const;
    document.addEventListener('click', onClick);
    for (const type of intents) document.addEventListener(type, onIntent, { passive: true });
    return () => {
      document.removeEventListener('click', onClick);
      for (const type of intents) document.removeEventListener(type, onIntent);
    };
  }, [router, pathname]);

  return null;
}
