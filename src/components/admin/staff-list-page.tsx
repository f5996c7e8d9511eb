import Link from 'next/link';
import type { ComponentProps, ReactNode } from 'react';
import adminStyles from '@/components/admin/admin.module.css';
import styles from '@/components/admin/users/users.module.css';
import { Pagination } from '@/components/listing/list-page';
import { Button } from '@/components/ui/button';

/**
 * The staff screens' list pages (users, audit log, media): one heading under the admin
 * breadcrumb, a search form of filters, the count, the rows or what says there are none, and
 * the pages. Each screen gives its filters, texts and rows.
 */

/** The breadcrumb back to the admin top, the page's heading and its lead. */
export function StaffPageHead({ title, lead }: { title: string; lead: ReactNode }) {
  return (
    <>
      <p className={adminStyles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / {title}
      </p>
      <h1 className={adminStyles.title}>{title}</h1>
      <p className={styles.lead}>{lead}</p>
    </>
  );
}

/** A labelled filter of the search form (an input or a select with `styles.input`). */
export function StaffFilter({
  id,
  label,
  className = styles.searchField,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children}
    </div>
  );
}

/** A search field of the search form. */
export function StaffSearchInput({ id, defaultValue }: { id: string; defaultValue: string }) {
  return (
    <input
      id={id}
      name="q"
      type="search"
      defaultValue={defaultValue}
      maxLength={100}
      className={styles.input}
      autoComplete="off"
    />
  );
}

export const staffInputClass = styles.input;

export function StaffList({
  path,
  filters,
  submitLabel,
  filtered,
  clearLabel,
  count,
  empty,
  children,
  pagination,
}: {
  /** Where the search form sends its query (the page itself). */
  path: string;
  filters: ReactNode;
  submitLabel: string;
  /** Whether a filter is set: the link that clears them shows. */
  filtered: boolean;
  clearLabel: string;
  /** What the count says, announced when it changes. */
  count: ReactNode;
  /** What stands instead of the rows when there are none; null: there are rows. */
  empty: string | null;
  children: ReactNode;
  pagination: Omit<ComponentProps<typeof Pagination>, 'basePath'>;
}) {
  return (
    <>
      <form method="get" action={path} role="search" className={styles.search}>
        {filters}
        <Button type="submit" color="black" width="auto" height={44}>
          {submitLabel}
        </Button>
        {filtered ? (
          <Link href={path} className={styles.clear}>
            {clearLabel}
          </Link>
        ) : null}
      </form>
      <p className={styles.count} role="status">
        {count}
      </p>
      {empty !== null ? <p className={adminStyles.empty}>{empty}</p> : children}
      <Pagination basePath={path} {...pagination} />
    </>
  );
}
