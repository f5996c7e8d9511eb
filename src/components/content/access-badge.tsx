import styles from './access-badge.module.css';

/**
 * 「無料公開」: a public-preview post, audio or movie, open to everyone in full. The FAQ tells
 * readers to look for this mark, so cards and item pages show the same words.
 */
export function PublicPreviewBadge() {
  return <span className={styles.publicPreview}>無料公開</span>;
}
