import { Link } from '@/components/layout/site-link';
import { formatDateTime } from '@/lib/format';
import {
  MEDIA_KIND_LABELS,
  type MediaItem,
  displayName,
  formatDimensions,
  formatFileSize,
  mediaPaths,
} from '@/lib/media/media-shared';
import { MediaThumb } from './media-thumb';
import styles from './media.module.css';

/** The library's files as cards; each opens the file's page (usage, alt text, delete). */
export function MediaGrid({
  items,
  usage,
}: {
  items: MediaItem[];
  /** How many content items use each file, by URL. */
  usage: ReadonlyMap<string, number>;
}) {
  return (
    <ul className={styles.grid}>
      {items.map((item) => {
        const facts = [
          MEDIA_KIND_LABELS[item.kind],
          formatFileSize(item.fileSize),
          formatDimensions(item),
        ].filter(Boolean);
        return (
          <li key={item.id} className={styles.card}>
            <MediaThumb url={item.url} kind={item.kind} />
            <div className={styles.cardBody}>
              <h3 className={styles.cardTitle}>
                <Link href={mediaPaths.item(item.id)}>{displayName(item)}</Link>
              </h3>
              <p className={styles.details}>{facts.join('・')}</p>
              <p className={styles.details}>
                {usage.get(item.url)
                  ? `${usage.get(item.url)}件のコンテンツで使用中`
                  : 'どのコンテンツでも未使用'}
              </p>
              {item.alt ? (
                <p className={styles.alt}>代替テキスト：{item.alt}</p>
              ) : item.kind === 'image' ? (
                <p className={styles.missing}>代替テキストがありません</p>
              ) : null}
              <p className={styles.details}>
                アップロード：
                <time dateTime={item.uploadedAt}>{formatDateTime(item.uploadedAt)}</time>
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
