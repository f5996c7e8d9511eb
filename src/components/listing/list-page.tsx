import { Link } from '@/components/layout/site-link';
import type { ReactNode } from 'react';
import { PhraseText } from '@/components/content/phrase-text';
import { type CardItem, CardGrid } from './content-card';
import styles from './listing.module.css';

/** The frame of a list page: the title, a lead, the list. */
export function ListPage({
  title,
  lead,
  kicker,
  children,
}: {
  title: string;
  lead?: ReactNode;
  kicker?: string;
  children: ReactNode;
}) {
  return (
    <div className={styles.page}>
      <header className={styles.pageHeader}>
        {kicker ? <p className={styles.pageKicker}>{kicker}</p> : null}
        <h1 className={styles.pageTitle}>
          <PhraseText text={title} />
        </h1>
        {lead ? <div className={styles.pageLead}>{lead}</div> : null}
      </header>
      {children}
    </div>
  );
}

export function EmptyState({
  children,
  action,
}: {
  children: ReactNode;
  action?: { href: string; label: string };
}) {
  return (
    <div className={styles.empty} role="status">
      <p>{children}</p>
      {action ? <Link href={action.href}>{action.label}</Link> : null}
    </div>
  );
}

/**
 * A list page's one page of cards (the page's own list: h2 titles, the first cover loaded
 * first), or what stands instead when it has none, and the links to the other pages.
 */
export function PagedCards<T>({
  list,
  card,
  basePath,
  params,
  empty,
}: {
  list: { items: T[]; page: number; totalPages: number };
  card: (item: T) => CardItem;
  basePath: string;
  /** The filters the page links keep. */
  params?: Record<string, string | undefined>;
  /** What stands when the page has no cards: an EmptyState. */
  empty: ReactNode;
}) {
  return (
    <>
      {list.items.length === 0 ? (
        empty
      ) : (
        <CardGrid items={list.items.map(card)} headingLevel={2} firstPriority />
      )}
      <Pagination
        basePath={basePath}
        params={params}
        page={list.page}
        totalPages={list.totalPages}
      />
    </>
  );
}

/** A labelled section of a page with a "see all" link. */
export function Section({
  id,
  title,
  more,
  children,
}: {
  id: string;
  title: string;
  more?: { href: string; label: string };
  children: ReactNode;
}) {
  return (
    <section className={styles.section} aria-labelledby={id}>
      <div className={styles.sectionHead}>
        <h2 id={id} className={styles.sectionTitle}>
          <PhraseText text={title} />
        </h2>
        {more ? (
          <Link href={more.href} className={styles.more}>
            {more.label}
            <span aria-hidden="true"> →</span>
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}

/**
 * Page links: the query of the current page kept, `param` (default `page`) changed. A screen
 * with two lists gives each its own `param`, a `label` and a `fragment` to come back to.
 */
export function Pagination({
  basePath,
  params,
  page,
  totalPages,
  param = 'page',
  fragment,
  label = 'ページ送り',
}: {
  basePath: string;
  params?: Record<string, string | undefined>;
  page: number;
  totalPages: number;
  param?: string;
  fragment?: string;
  label?: string;
}) {
  if (totalPages <= 1) return null;
  const href = (n: number) => {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params ?? {}))
      if (value && key !== param) query.set(key, value);
    if (n > 1) query.set(param, String(n));
    const text = query.toString();
    return `${basePath}${text ? `?${text}` : ''}${fragment ? `#${fragment}` : ''}`;
  };
  const pages = pageWindow(page, totalPages);
  return (
    <nav className={styles.pagination} aria-label={label}>
      <ul>
        {page > 1 ? (
          <li>
            <Link href={href(page - 1)} rel="prev">
              前へ
            </Link>
          </li>
        ) : null}
        {pages.map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                href={href(n)}
                aria-current={n === page ? 'page' : undefined}
                aria-label={`${n} ページ目`}
              >
                {n}
              </Link>
            </li>
          ),
        )}
        {page < totalPages ? (
          <li>
            <Link href={href(page + 1)} rel="next">
              次へ
            </Link>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** 1 … 4 5 [6] 7 8 … 20 */
export function pageWindow(page: number, total: number): (number | null)[] {
  const out: (number | null)[] = [];
  for (let n = 1; n <= total; n++) {
    if (n === 1 || n === total || Math.abs(n - page) <= 2) out.push(n);
    else if (out.at(-1) !== null) out.push(null);
  }
  return out;
}
