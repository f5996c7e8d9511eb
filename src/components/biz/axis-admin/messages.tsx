import { doneMessage, failure } from '@/lib/http/form-flash';
import type { Flash } from '@/lib/http/flash';
import styles from '@/components/biz/biz-admin.module.css';

/**
 * The top of a staff screen: what the last action did, or why a post failed (with JavaScript
 * the form says so itself; a plain post comes back here, to the page's top). Both come from the
 * one-time message a post leaves (src/lib/http/form-flash.ts).
 */
export function PageMessages({
  flash,
  errorAt,
}: {
  flash: Flash | null;
  /** Where the form that failed is (a #fragment): a plain post comes back to the page's top. */
  errorAt?: string | null;
}) {
  const error = failure(flash)?.message;
  const notice = doneMessage(flash);
  if (error)
    return (
      <p role="alert" className={styles.alert}>
        {error}
        {errorAt ? (
          <>
            {' '}
            <a href={errorAt}>該当のフォームへ移動</a>
          </>
        ) : null}
      </p>
    );
  return notice ? (
    <p role="status" className={styles.notice}>
      {notice}
    </p>
  ) : null;
}

/**
 * A failed plain post's message again beside the small form (a row's button) it belongs to;
 * PageMessages has announced it already.
 */
export function RowError({ message }: { message: string | null | undefined }) {
  return message ? <p className={styles.rowError}>{message}</p> : null;
}
