import { Link } from '@/components/layout/site-link';
import type { ReactNode } from 'react';
import styles from './account-page.module.css';

/** The frame of every account screen: a narrow column with the title and a short lead. */
export function AccountPage({
  title,
  lead,
  children,
  footer,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{title}</h1>
      {lead ? <div className={styles.lead}>{lead}</div> : null}
      {children}
      {footer ? <div className={styles.footer}>{footer}</div> : null}
    </div>
  );
}

/**
 * A confirmation after a step succeeded (announced politely to screen readers), or a message
 * (`error` announced at once). `className` adds a screen's own layout (the billing screens').
 */
export function Notice({
  children,
  tone = 'success',
  className,
}: {
  children: ReactNode;
  tone?: 'success' | 'info' | 'error';
  className?: string;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={[styles.notice, styles[tone], className].filter(Boolean).join(' ')}
    >
      {children}
    </div>
  );
}

export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.section} aria-label={title}>
      <h2 className={styles.sectionTitle}>{title}</h2>
      {children}
    </section>
  );
}

/** The account hub's list of links, one a line (not prefetched: the hub links to many pages). */
export function LinkList({ links }: { links: { href: string; label: ReactNode }[] }) {
  return (
    <ul className={styles.links}>
      {links.map(({ href, label }, index) => (
        // Two links may share a page (the profile form holds the newsletter setting).
        <li key={index}>
          <Link href={href} prefetch={false}>
            {label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
