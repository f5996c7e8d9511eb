import { Link } from '@/components/layout/site-link';
import type { ReactNode } from 'react';
import styles from './home.module.css';
import { PhraseText } from '@/components/content/phrase-text';

/** A section of the front page: a ruled heading with its 一覧 link, then its stories. */
export function HomeSection({
  id,
  title,
  more,
  className,
  children,
}: {
  id: string;
  title: string;
  more: { href: string; label: string };
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      className={className ? `${styles.section} ${className}` : styles.section}
      aria-labelledby={id}
    >
      <div className={styles.sectionHead}>
        <h2 id={id} className={styles.sectionTitle}>
          <PhraseText text={title} />
        </h2>
        <Link href={more.href} className={styles.more}>
          {more.label}
          <span aria-hidden="true"> →</span>
        </Link>
      </div>
      {children}
    </section>
  );
}
