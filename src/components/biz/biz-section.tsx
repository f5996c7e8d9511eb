import type { ComponentProps, ReactNode } from 'react';
import { StaffList } from '@/components/admin/staff-list-page';
import styles from '@/components/biz/biz-admin.module.css';

type SectionProps = {
  id: string;
  title: string;
  /** Beside the heading: how many the section holds. */
  count?: string;
  /** Given (even null): the heading and the action (the link that adds one) share a header row. */
  action?: ReactNode;
  children: ReactNode;
};

/**
 * A section of the biz admin screens (partners, listings, members, inquiries, profile): its
 * heading with the count beside it and, where given, an action at the right. The heading's id is
 * `${id}-title`; the section's id is the anchor the page links to.
 */
export function BizSection({ id, title, count, action, children }: SectionProps) {
  const heading = (
    <h2 id={`${id}-title`} className={styles.sectionTitle}>
      {title}
      {count !== undefined ? <span className={styles.count}>{count}</span> : null}
    </h2>
  );
  return (
    <section className={styles.section} aria-labelledby={`${id}-title`} id={id}>
      {action !== undefined ? (
        <div className={styles.sectionHeader}>
          {heading}
          {action}
        </div>
      ) : (
        heading
      )}
      {children}
    </section>
  );
}

/**
 * A biz admin section that holds one list (the staff screens' StaffList, its empty state a
 * shaded box, its search and pages coming back to the section): the count beside the heading is
 * `total` (all there are, over every page; the items shown by default) with its `unit` (件, 人,
 * 社), and `empty` stands instead of the list when it shows no items. `intro` stands between the
 * heading and the list, `footer` after it.
 */
export function BizListSection({
  id,
  title,
  items,
  total = items.length,
  unit,
  empty,
  action,
  intro,
  footer,
  classes,
  ...list
}: Omit<SectionProps, 'children' | 'count'> &
  Omit<ComponentProps<typeof StaffList>, 'count' | 'empty'> & {
    items: readonly unknown[];
    total?: number;
    unit: string;
    empty: ReactNode;
    intro?: ReactNode;
    footer?: ReactNode;
  }) {
  return (
    <BizSection id={id} title={title} count={`${total}${unit}`} action={action}>
      {intro}
      <StaffList
        fragment={id}
        {...list}
        empty={items.length === 0 ? empty : null}
        classes={{ empty: styles.empty, ...classes }}
      />
      {footer}
    </BizSection>
  );
}
