import { CONSOLE_STATUS_LABELS, type ConsoleStatus } from '@/lib/admin-content';
import { formatDateTime } from '@/lib/format';
import styles from './status-badge.module.css';

/**
 * An item's status in words (never colour alone); a scheduled item says when it goes live,
 * in Japan time. Used by the list, the editor and the history, on either side.
 */
export function StatusBadge({
  status,
  scheduledAt,
}: {
  status: ConsoleStatus;
  scheduledAt?: string | null;
}) {
  return (
    <span className={`${styles.badge} ${styles[`badge-${status}`] ?? ''}`}>
      {CONSOLE_STATUS_LABELS[status]}
      {status === 'scheduled' && scheduledAt ? (
        <>
          {' '}
          <time dateTime={scheduledAt}>{formatDateTime(scheduledAt)}</time>
        </>
      ) : null}
    </span>
  );
}
