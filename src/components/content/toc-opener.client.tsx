'use client';

import { useEffect } from 'react';

/** Where the table of contents stands beside the text (table-of-contents.module.css). */
const BESIDE = '(min-width: 64rem)';

/**
 * Opens the table of contents from 1024 px, folds it again below: the CSS already shows it
 * open there, this makes the `<details>` say so (a screen reader would hear 「折りたたみ」 for a
 * list it can read). A phone reader's own toggle is left alone until the width crosses 1024 px.
 */
export function TocOpener() {
  useEffect(() => {
    const details = document.querySelector<HTMLDetailsElement>('details[data-toc]');
    if (!details) return;
    const query = window.matchMedia(BESIDE);
    const apply = () => {
      details.open = query.matches;
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, []);
  return null;
}
