'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { sendPageView } from './beacon';

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

/** How long to wait for a new page's <title> before sending the view with what is there. */
export const TITLE_WAIT_MS = 1000;

/**
 * SPEC §1: a page-view event goes to the tag-manager data layer on the first load and on
 * every client-side route change. After a client navigation the new <title> may arrive after
 * the page (metadata is streamed), so the push waits for it, at most TITLE_WAIT_MS.
 * The same route changes send the first-party view beacon (./beacon.ts) at once: it needs no
 * title. Its referrer is the document's on the first load and the previous page after that.
 */
export function PageViewTracker() {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const lastTitle = useRef<string | null>(null);
  const lastPathname = useRef<string | null>(null);

  useEffect(() => {
    const path = search ? `${pathname}?${search}` : pathname;
    const referrer =
      lastPathname.current === null
        ? document.referrer
        : `${window.location.origin}${lastPathname.current}`;
    lastPathname.current = pathname;
    sendPageView(pathname, referrer);
    const previous = lastTitle.current;
    const titleReady = () => document.title !== '' && document.title !== previous;
    let sent = false;
    const send = () => {
      if (sent) return;
      sent = true;
      observer.disconnect();
      clearTimeout(timer);
      lastTitle.current = document.title;
      pushPageView(path, document.title);
    };
    const observer = new MutationObserver(() => {
      if (titleReady()) send();
    });
    const timer = setTimeout(send, TITLE_WAIT_MS);
    if (titleReady()) send();
    else observer.observe(document, { subtree: true, childList: true, characterData: true });
    // Leaving before the title came still counts as a view of this page.
    return send;
  }, [pathname, search]);

  return null;
}
