'use client';

import { useEffect, useEffectEvent, useState } from 'react';
import styles from './snackbar.module.css';

/** SPEC §9 */
export const SNACKBAR_AUTO_HIDE_MS = 3000;

export type SnackbarSeverity = 'error' | 'warning' | 'info' | 'success';

/** SPEC §2: the component on its own defaults to info (the shared context defaults to error). */
export const SNACKBAR_DEFAULT_SEVERITY: SnackbarSeverity = 'info';

export type SnackbarProps = {
  /** The snackbar is shown while this is non-empty. */
  message: string;
  severity?: SnackbarSeverity;
  /** Called from the close button and when the auto-hide delay has passed. */
  onClose: () => void;
};

// Severity is also said in words, not only by colour (WCAG 1.4.1).
const SEVERITY_LABELS: Record<SnackbarSeverity, { text: string; icon: string }> = {
  error: { text: 'エラー', icon: '!' },
  warning: { text: '注意', icon: '!' },
  info: { text: 'お知らせ', icon: 'i' },
  success: { text: '完了', icon: '✓' },
};

export function Snackbar({
  message,
  severity = SNACKBAR_DEFAULT_SEVERITY,
  onClose,
}: SnackbarProps) {
  if (!message) return null;
  // A new message is a new snackbar: the auto-hide timer and the paused state start afresh.
  return <VisibleSnackbar key={message} message={message} severity={severity} onClose={onClose} />;
}

function VisibleSnackbar({ message, severity, onClose }: Required<SnackbarProps>) {
  // Reading takes longer than 3 s for some people: the timer waits while the pointer is over
  // the snackbar or focus is inside it, and starts again in full afterwards (WCAG 2.2.1).
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const paused = hovered || focused;

  // The parent's onClose may be a new function on each render; that must not restart the timer.
  const hide = useEffectEvent(() => onClose());
  useEffect(() => {
    if (paused) return;
    const timer = setTimeout(hide, SNACKBAR_AUTO_HIDE_MS);
    return () => clearTimeout(timer);
  }, [paused]);

  const urgent = severity === 'error' || severity === 'warning';
  const label = SEVERITY_LABELS[severity];

  return (
    <div
      className={`${styles.snackbar} ${styles[severity]}`}
      data-severity={severity}
      onPointerEnter={() => setHovered(true)}
      onPointerLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
      }}
    >
      <span className={styles.icon} aria-hidden="true">
        {label.icon}
      </span>
      {/* The live region holds only the message, so the close button is not read out with it. */}
      <p
        className={styles.message}
        role={urgent ? 'alert' : 'status'}
        aria-live={urgent ? 'assertive' : 'polite'}
        aria-atomic="true"
      >
        <span className="visually-hidden">{label.text}: </span>
        {message}
      </p>
      <button type="button" className={styles.close} aria-label="閉じる" onClick={onClose}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
