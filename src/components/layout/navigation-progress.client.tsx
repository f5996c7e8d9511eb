'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import styles from './navigation-progress.module.css';

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
    // Capture: the framework's links cancel the click (to navigate themselves) before it
    // would bubble up to the document.
    const onClick = (event: MouseEvent) => {
      if (event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!(link instanceof HTMLAnchorElement)) return;
      if (link.target && link.target !== '_self') return;
      if (link.hasAttribute('download')) return;
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      if (url.pathname === window.location.pathname && url.search === window.location.search)
        return; // the same page (or a hash on it): nothing loads
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
