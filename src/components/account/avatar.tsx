import type { CSSProperties } from 'react';
import styles from './avatar.module.css';

/** The character shown when a reader has no picture: the first of their name. */
export function avatarInitial(name: string): string {
  return Array.from(name.trim())[0] ?? '?';
}

/**
 * A reader's picture, or the first character of their name on a dark disc. Decorative: the
 * name is always given in text beside it, so screen readers skip it.
 */
export function Avatar({
  name,
  url,
  size = 28,
  className,
}: {
  name: string;
  url?: string | null;
  size?: number;
  className?: string;
}) {
  return (
    <span
      className={[styles.avatar, className].filter(Boolean).join(' ')}
      style={{ '--avatar-size': `${size}px` } as CSSProperties}
      aria-hidden="true"
    >
      {url ? (
        // eslint-disable-next-line @next/next/no-img-element -- a small uploaded picture, already sized
        <img src={url} alt="" width={size} height={size} className={styles.image} />
      ) : (
        avatarInitial(name)
      )}
    </span>
  );
}
