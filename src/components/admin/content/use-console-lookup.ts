'use client';

import { useEffect, useRef, useState } from 'react';
import { type ConsoleStatus, consolePaths, type ReferenceOption } from '@/lib/admin-content';

/**
 * The console's search of an endpoint's items by title (GET …/lookup?q=, staff only), a moment
 * after the last keystroke; a newer query wins. Used by the reference picker and the rich-text
 * editor's link dialog.
 */

export type Lookup =
  | { state: 'idle' }
  | { state: 'loading' }
  | { state: 'done'; items: ReferenceOption[] }
  | { state: 'failed' };

const DEBOUNCE_MS = 250;
const STATUSES: readonly ConsoleStatus[] = ['draft', 'scheduled', 'published', 'changed'];

/** `{ items: ReferenceOption[] }`, whatever else the answer holds; null when unreadable. */
export function readLookupAnswer(body: unknown): ReferenceOption[] | null {
  if (typeof body !== 'object' || body === null || !('items' in body)) return null;
  const items = body.items;
  if (!Array.isArray(items)) return null;
  return items.flatMap((raw: unknown) => {
    if (typeof raw !== 'object' || raw === null) return [];
    const { id, label, status } = raw as Record<string, unknown>;
    if (typeof id !== 'string') return [];
    return [
      {
        id,
        label: typeof label === 'string' && label ? label : id,
        status: STATUSES.find((s) => s === status) ?? 'draft',
      },
    ];
  });
}

/** The lookup of `query` while `enabled`; `onDone` runs when new results arrive. */
export function useConsoleLookup(
  endpoint: string,
  query: string,
  enabled: boolean,
  onDone?: () => void,
): Lookup {
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const onDoneRef = useRef(onDone);
  useEffect(() => {
    onDoneRef.current = onDone;
  });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLookup({ state: 'loading' });
      const url = `${consolePaths.apiLookup(endpoint)}?q=${encodeURIComponent(query.trim())}`;
      fetch(url, { signal: controller.signal, credentials: 'same-origin' })
        .then(async (response) => {
          const items = response.ok ? readLookupAnswer(await response.json()) : null;
          if (!items) return setLookup({ state: 'failed' });
          setLookup({ state: 'done', items });
          onDoneRef.current?.();
        })
        .catch((error: unknown) => {
          if (!(error instanceof DOMException && error.name === 'AbortError'))
            setLookup({ state: 'failed' });
        });
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [enabled, query, endpoint]);
  return lookup;
}
