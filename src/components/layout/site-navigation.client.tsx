'use client';

import { usePathname, useRouter, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { isCurrentPage, sameSiteLinkOf, sameSiteUrl } from './same-site-link';
import { NAV_ATTRIBUTE, NO_PREFETCH } from './site-link';
import styles from './navigation-progress.module.css';

// The site's client-side navigation, both parts in one module: the root layout loads one
// script for them (docs/decisions/065-links-as-plain-anchors.md).

/**
 * The loading state of every client-side navigation: a thin bar at the top (and a status for
 * screen readers) from the click on a link of this site until the new page is shown. Pages
 * themselves stay fully server-rendered, so they also work without JavaScript (a route's
 * loading.tsx would hide them until a script reveals them).
 */
export function NavigationProgress() {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const [pending, setPending] = useState(false);

  useEffect(() => setPending(false), [pathname, search]);

  // A link whose click some script cancels loads nothing: never leave the bar on for good.
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => setPending(false), 10_000);
    return () => clearTimeout(timer);
  }, [pending]);

  useEffect(() => {
    // Capture: the framework's links, and the navigator, cancel the click (to navigate
    // themselves) before it would bubble up to the document.
    const onClick = (event: MouseEvent) => {
      const link = sameSiteLinkOf(event);
      if (!link || isCurrentPage(link.url)) return; // a hash on this page loads nothing
      setPending(true);
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);

  return pending ? (
    <div className={styles.bar} role="status">
      <span className={styles.label}>読み込み中</span>
    </div>
  ) : null;
}

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
      const url = sameSiteUrl(anchor);
      if (!url || isCurrentPage(url)) return;
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
