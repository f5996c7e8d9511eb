import { MEDIA_KIND_LABELS, type MediaKind, thumbnailUrl } from '@/lib/media/media-shared';
import styles from './media.module.css';

/**
 * A file's thumbnail in lists: the image itself (decorative: the card names the file and shows
 * its alt text beside it), or the kind's name for sound and video.
 */
export function MediaThumb({
  url,
  kind,
  small,
}: {
  url: string;
  kind: MediaKind;
  small?: boolean;
}) {
  return (
    <div className={small ? `${styles.thumb} ${styles.smallThumb}` : styles.thumb}>
      {kind === 'image' ? (
        // eslint-disable-next-line @next/next/no-img-element -- sizes unknown for some files; the optimiser URL is already small
        <img src={thumbnailUrl(url)} alt="" loading="lazy" decoding="async" />
      ) : (
        <span className={styles.thumbKind} aria-hidden="true">
          {MEDIA_KIND_LABELS[kind]}
        </span>
      )}
    </div>
  );
}
