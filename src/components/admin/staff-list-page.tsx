import { Link } from '@/components/layout/site-link';
import type { ComponentProps, ReactNode } from 'react';
import adminStyles from '@/components/admin/admin.module.css';
import staff from '@/components/admin/staff.module.css';
import styles from '@/components/admin/users/users.module.css';
import { Pagination } from '@/components/listing/list-page';
import { SubmitButton } from '@/components/ui/button';

/**
 * The staff screens' list pages and lists (users, audit log, media, the content console, the
 * biz admin's partners, inquiries, members and listings): a search form of filters, the count,
 * the rows or what says there are none, and the pages. Each screen gives its filters, texts,
 * rows and, where its stylesheet differs, its classes.
 */

/** The breadcrumb back to the admin top and the heading of a page right under it. */
export function StaffPageTitle({ title }: { title: string }) {
  return (
    <>
      <p className={adminStyles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / {title}
      </p>
      <h1 className={adminStyles.title}>{title}</h1>
    </>
  );
}

/** The trail above a page of the content console: the admin top, the console, then `children`. */
export function ContentBreadcrumb({ children }: { children: ReactNode }) {
  return (
    <p className={adminStyles.breadcrumb}>
      <Link href="/admin">管理画面</Link> / <Link href="/admin/content">コンテンツ</Link> /{' '}
      {children}
    </p>
  );
}

/** The breadcrumb back to the admin top, the page's heading and its lead. */
export function StaffPageHead({ title, lead }: { title: string; lead: ReactNode }) {
  return (
    <>
      <StaffPageTitle title={title} />
      <p className={styles.lead}>{lead}</p>
    </>
  );
}

/**
 * A titled section of a staff screen, its heading `${id}-title`; `id` is also the section's
 * anchor (a form's errors lead back to it) unless `anchored` is false.
 */
export function StaffSection({
  id,
  title,
  anchored = true,
  children,
}: {
  id: string;
  title: ReactNode;
  anchored?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      className={styles.section}
      id={anchored ? id : undefined}
      aria-labelledby={`${id}-title`}
    >
      <h2 id={`${id}-title`} className={styles.sectionTitle}>
        {title}
      </h2>
      {children}
    </section>
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

/**
 * A select filter of the search form, named `name`: its choices as children, after the one that
 * filters nothing (value '') where `all` names it.
 */
export function StaffSelect({
  id,
  name,
  label,
  value,
  all,
  className,
  children,
}: {
  id: string;
  name: string;
  label: string;
  value: string;
  all?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <StaffFilter id={id} label={label} className={className}>
      <select id={id} name={name} defaultValue={value} className={styles.input}>
        {all !== undefined ? <option value="">{all}</option> : null}
        {children}
      </select>
    </StaffFilter>
  );
}

/** The search form of a list: its filters, the submit button and the link that clears them. */
export type StaffSearch = {
  filters: ReactNode;
  submitLabel: string;
  /** Whether a filter is set: the link that clears them shows. */
  filtered: boolean;
  clearLabel: string;
  /** The form's name, where the landmark needs more than 「検索」. */
  label?: string;
  /** The screen's other parameters (another list's page), carried along as hidden fields. */
  keep?: Record<string, string | undefined>;
};

/** Where a screen's stylesheet gives the parts another look; the staff defaults otherwise. */
export type StaffListClasses = {
  search?: string;
  /** Set: the submit button and the clear link stand together in a box of this class. */
  actions?: string;
  count?: string;
  empty?: string;
};

export function StaffList({
  path,
  fragment,
  search,
  count,
  empty,
  emptyAs: Empty = 'p',
  children,
  pagination,
  classes = {},
}: {
  /** Where the search form sends its query and the page links lead (the page itself). */
  path?: string;
  /** The list's anchor on a screen of several lists: the form, clear link and pages return to it. */
  fragment?: string;
  search?: StaffSearch;
  /** What the count says, announced when it changes; left out where a heading says it. */
  count?: ReactNode;
  /** What stands instead of the rows when there are none; null: there are rows. */
  empty: ReactNode | null;
  /** A paragraph (a sentence) or a box (paragraphs and links). */
  emptyAs?: 'p' | 'div';
  children: ReactNode;
  pagination?: Omit<ComponentProps<typeof Pagination>, 'basePath' | 'fragment'>;
  classes?: StaffListClasses;
}) {
  const base = path ?? '';
  const back = fragment ? `${base}#${fragment}` : base;
  const actions = search ? (
    <>
      <SubmitButton>{search.submitLabel}</SubmitButton>
      {search.filtered ? (
        <Link href={back} className={staff.clear}>
          {search.clearLabel}
        </Link>
      ) : null}
    </>
  ) : null;
  return (
    <>
      {search ? (
        <form
          method="get"
          action={back}
          role="search"
          aria-label={search.label}
          className={classes.search ?? staff.search}
        >
          {Object.entries(search.keep ?? {}).map(([name, value]) =>
            value ? <input key={name} type="hidden" name={name} value={value} /> : null,
          )}
          {search.filters}
          {classes.actions ? <div className={classes.actions}>{actions}</div> : actions}
        </form>
      ) : null}
      {count !== undefined ? (
        <p className={classes.count ?? styles.count} role="status">
          {count}
        </p>
      ) : null}
      {empty !== null ? (
        <Empty className={classes.empty ?? adminStyles.empty}>{empty}</Empty>
      ) : (
        children
      )}
      {pagination ? <Pagination basePath={base} fragment={fragment} {...pagination} /> : null}
    </>
  );
}

/** One page of a staff search's results, as the server's paged listers return it. */
export type StaffResultPage = { items: readonly unknown[]; page: number; pageCount: number };

/**
 * A StaffList of one page of search results (users, audit log, media): `whenEmpty` stands
 * instead of the rows when the page has none, and the page links carry the search's parameters.
 */
export function StaffResultList({
  result,
  whenEmpty,
  pageParams,
  pageLabel,
  ...list
}: Omit<ComponentProps<typeof StaffList>, 'empty' | 'pagination'> & {
  result: StaffResultPage;
  whenEmpty: ReactNode;
  pageParams: Record<string, string | undefined>;
  pageLabel: string;
}) {
  return (
    <StaffList
      {...list}
      empty={result.items.length > 0 ? null : whenEmpty}
      pagination={{
        page: result.page,
        totalPages: result.pageCount,
        params: pageParams,
        label: pageLabel,
      }}
    />
  );
}
