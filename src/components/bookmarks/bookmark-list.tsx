import { Link } from '@/components/layout/site-link';
import { FillCover } from '@/components/content/responsive-image';
import { BOOKMARK_TYPE_LABELS } from '@/lib/bookmarks';
import { formatDateJa, isoDateJa } from '@/lib/format';
import type { BookmarkRow } from '@/server/features/bookmarks/bookmark-page';
import { BookmarkButton } from './bookmark-button.client';
import styles from './bookmark-list.module.css';

export const GONE_TITLE = 'この記事は公開を終了しました';

/** The rows of /posts/bookmark: cover, type, title and the button that removes it. */
export function BookmarkList({ rows }: { rows: BookmarkRow[] }) {
  return (
    <ul className={styles.list}>
      {rows.map((row, i) => (
        <li key={row.key} className={styles.row}>
          <div className={styles.cover}>
            <FillCover
              image={row.item?.image}
              sizes="(min-width: 40rem) 14rem, 8rem"
              priority={i === 0}
            />
          </div>
          <div className={styles.body}>
            <p className={styles.type}>{BOOKMARK_TYPE_LABELS[row.endpoint]}</p>
            {row.item ? (
              <h2 className={styles.title}>
                <Link href={row.item.href}>{row.item.title}</Link>
              </h2>
            ) : (
              <h2 className={`${styles.title} ${styles.gone}`}>{GONE_TITLE}</h2>
            )}
            <p className={styles.meta}>
              <time dateTime={isoDateJa(row.savedAt)}>{formatDateJa(row.savedAt)}</time>に保存
            </p>
            <BookmarkButton
              endpoint={row.endpoint}
              contentId={row.contentId}
              title={row.item?.title ?? GONE_TITLE}
              initialBookmarked
              className={styles.action}
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
