'use client';

import { usePathname, useSearchParams } from 'next/navigation';
import { useEffect, useState } from 'react';
import { isCurrentPage, sameSiteLinkOf } from './same-site-link';
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
