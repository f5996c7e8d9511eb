import { type AccessLevel, accessLabel } from '@/lib/access/access-label';
import styles from './access-badge.module.css';

/**
 * Who may read an item, in the site's one vocabulary (src/lib/access/access-label.ts): 無料公開,
 * 会員限定 (a free account opens it) or 有料会員限定. Cards, item headers, search results and the
 * audio and movie pages all show this badge, so the FAQ's words are the words on every surface.
 * The visible text is what screen readers read.
 */
export function AccessBadge({ level }: { level: AccessLevel }) {
  const { text, variant } = accessLabel(level);
  return <span className={styles[variant]}>{text}</span>;
}
