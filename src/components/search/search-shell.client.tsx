'use client';

import { useRouter } from 'next/navigation';
import { type FormEvent, type MouseEvent, type ReactNode, useTransition } from 'react';
import { Spinner } from '@/components/ui/spinner';
import styles from './search.module.css';

const SEARCH_PATH = '/search';

const isPlainClick = (event: MouseEvent) =>
  event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;

/**
 * Loading state for searches made on the page (a new query, another type, another page): the
 * navigation runs in a transition, and while it is pending the results are dimmed under the
 * site's Spinner. Everything inside is server-rendered and works without JavaScript; this only
 * takes over same-page navigations when JavaScript runs.
 *
 * Why not loading.tsx: a route's loading file is a Suspense boundary on the first load too, and
 * its content arrives in a hidden block that only JavaScript reveals, so without JavaScript the
 * page would stay on the spinner (vercel/next.js#50150).
 */
export function SearchShell({ form, children }: { form: ReactNode; children: ReactNode }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const go = (href: string) => startTransition(() => router.push(href));

  // Capture phase: before next/link's own handler, which then sees defaultPrevented.
  function onClickCapture(event: MouseEvent<HTMLDivElement>) {
    if (event.defaultPrevented || !isPlainClick(event) || !(event.target instanceof Element)) {
      return;
    }
    const anchor = event.target.closest('a[href]');
    if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return;
    if (anchor.target && anchor.target !== '_self') return;
    const url = new URL(anchor.href);
    if (url.origin !== window.location.origin || url.pathname !== SEARCH_PATH) return;
    event.preventDefault();
    go(`${url.pathname}${url.search}`);
  }

  function onSubmit(event: FormEvent<HTMLDivElement>) {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.method.toLowerCase() !== 'get') return;
    const url = new URL(form.action);
    if (url.origin !== window.location.origin || url.pathname !== SEARCH_PATH) return;
    event.preventDefault();
    const params = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
      if (typeof value === 'string' && value.trim() !== '') params.append(name, value);
    }
    const query = params.toString();
    go(query ? `${SEARCH_PATH}?${query}` : SEARCH_PATH);
  }

  return (
    <div onClickCapture={onClickCapture} onSubmit={onSubmit}>
      {form}
      <div className={styles.results} aria-busy={pending || undefined}>
        {pending ? (
          <div className={styles.pending}>
            <Spinner fullHeight={false} label="検索しています" />
          </div>
        ) : null}
        <div className={pending ? styles.stale : undefined}>{children}</div>
      </div>
    </div>
  );
}
