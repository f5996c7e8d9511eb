'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect } from 'react';

export type PageViewEvent = { event: 'page_view'; page_path: string; page_title: string };

declare global {
  interface Window {
    dataLayer?: unknown[];
  }
}

export function pushPageView(path: string, title: string): PageViewEvent {
  const event: PageViewEvent = { event: 'page_view', page_path: path, page_title: title };
  (window.dataLayer ??= []).push(event);
  return event;
}

/**
 * SPEC §1: a page-view event goes to the tag-manager data layer on the first load and on
 * every client-side route change. The title is read after the new page's metadata is in.
 */
export function PageViewTracker() {
  const pathname = usePathname();
  const search = useSearchParams().toString();

  useEffect(() => {
    const path = search ? `${pathname}?${search}` : pathname;
    // The new page's <title> is committed with the page; a task later it is surely in place.
    // Not cancelled on a quick second navigation: every page reached counts as a view.
    setTimeout(() => pushPageView(path, document.title), 0);
  }, [pathname, search]);

  return null;
}
