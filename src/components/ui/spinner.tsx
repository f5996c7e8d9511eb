import { useId } from 'react';
import styles from './spinner.module.css';

export const DEFAULT_SPINNER_LABEL = '読み込み中';

export type SpinnerProps = {
  /** Accessible name announced to screen readers. */
  label?: string;
  /** Fill the viewport height (page loading). Set false to sit inside a section. */
  fullHeight?: boolean;
  className?: string;
};

export function Spinner({
  label = DEFAULT_SPINNER_LABEL,
  fullHeight = true,
  className,
}: SpinnerProps) {
  // The label is both the region's name and its content: live regions announce content, while
  // accessibility queries and the rotor use the name. Pointing one at the other avoids reading it twice.
  const labelId = useId();
  const classes = [styles.container, fullHeight ? styles.fullHeight : undefined, className]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      role="status"
      aria-labelledby={labelId}
      className={classes}
      data-full-height={fullHeight || undefined}
    >
      <span className={styles.ring} aria-hidden="true" />
      <span id={labelId} className="visually-hidden">
        {label}
      </span>
    </div>
  );
}

export type InlineSpinnerProps = {
  className?: string;
};

/**
 * A small decorative spinner for use inside controls (e.g. a loading Button). It is hidden from
 * assistive technology: the control itself carries the busy state (`aria-busy`).
 */
export function InlineSpinner({ className }: InlineSpinnerProps) {
  const classes = [styles.ring, styles.inline, className].filter(Boolean).join(' ');
  return <span className={classes} aria-hidden="true" />;
}
