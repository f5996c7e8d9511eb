import type { Heading } from '@/lib/text/headings';
import { tableOfContents } from '@/lib/text/headings';
import { PhraseText } from './phrase-text';
import { TocOpener } from './toc-opener.client';
import styles from './table-of-contents.module.css';

/**
 * 目次: the article's h2 and h3 as links to their ids (RichBody.headings, from the very body the
 * page renders, so every link lands). For a reader without access the page passes the lead's
 * headings only: a heading below the divider is never listed. Folded (`<details>`) on a phone;
 * beside the text and sticky from 1024 px, open (CSS opens it without JavaScript; TocOpener sets
 * `open` so assistive technology hears the state it sees). Nothing under three headings.
 */
export function TableOfContents({ headings }: { headings: readonly Heading[] }) {
  const entries = tableOfContents(headings);
  if (entries.length === 0) return null;
  return (
    <nav aria-label="目次" className={styles.toc}>
      <details className={styles.details} data-toc="">
        <summary className={styles.summary}>目次</summary>
        <ol className={styles.list}>
          {entries.map((entry) => (
            <li key={entry.id}>
              <a href={`#${entry.id}`}>
                <PhraseText text={entry.text} />
              </a>
              {entry.children.length > 0 ? (
                <ol>
                  {entry.children.map((child) => (
                    <li key={child.id}>
                      <a href={`#${child.id}`}>
                        <PhraseText text={child.text} />
                      </a>
                    </li>
                  ))}
                </ol>
              ) : null}
            </li>
          ))}
        </ol>
      </details>
      <TocOpener />
    </nav>
  );
}
