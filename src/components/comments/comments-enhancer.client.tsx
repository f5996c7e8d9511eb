'use client';
import { useEffect } from 'react';

/**
 * The comments' one client part (progressive enhancement): the page is the same for its whole
 * audience, so after hydration it asks which comments are the reader's own and shows their edit
 * and delete controls on those alone. Without JavaScript those controls stay on every comment
 * and the server refuses anyone else's.
 */
export function CommentsEnhancer({
  sectionId,
  endpoint,
  contentId,
}: {
  sectionId: string;
  endpoint: string;
  contentId: string;
}) {
  useEffect(() => {
    const root = document.getElementById(sectionId);
    if (!root) return;
    root.setAttribute('data-comments-js', '');
    const query = new URLSearchParams({ endpoint, contentId });
    const controller = new AbortController();
    fetch(`/api/comments?${query}`, {
      headers: { accept: 'application/json' },
      signal: controller.signal,
    })
      .then((answer) => (answer.ok ? (answer.json() as Promise<{ own?: string[] }>) : null))
      .then((answer) => {
        for (const id of answer?.own ?? [])
          root.querySelector(`[data-own-for="${CSS.escape(id)}"]`)?.setAttribute('data-mine', '');
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [sectionId, endpoint, contentId]);
  return null;
}
