'use client';

import { useEffect, useState } from 'react';

/**
 * Whether the page is on its way to another (a form posted, a redirect to a provider): a button
 * spins until the next page replaces this one. Back to this page through the browser's page cache,
 * it comes back as it was left, spinning: it is usable again.
 */
export function useLeavingState() {
  const [pending, setPending] = useState(false);
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setPending(false);
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);
  return [pending, setPending] as const;
}
