import formStyles from '@/components/forms/form.module.css';
import { SubmitButton } from '@/components/ui/button';
import styles from './jobs-post.module.css';

/**
 * 「募集を終了する」 for a live listing: its own small form, apart from the listing form. The
 * confirmation is a checkbox the server requires (src/server/features/partners/jobs/listings-http.ts), so it
 * works without JavaScript and cannot be skipped by a double click.
 */
export function CloseListingForm({
  action,
  revision,
  error,
}: {
  action: string;
  revision: number;
  error?: string;
}) {
  const errorId = 'listing-close-error';
  return (
    <form
      method="post"
      action={action}
      className={styles.closeForm}
      aria-labelledby="listing-close"
    >
      <h2 id="listing-close" className={styles.closeTitle}>
        募集を終了する
      </h2>
      <p>
        締切の前に募集を終えるときに使います。終了すると、求人一覧・検索結果から外れ、求人のページには「この求人の募集は終了しました」と表示されます。元に戻すには、募集締切を直して審査に提出してください。
      </p>
      <input type="hidden" name="intent" value="close" />
      <input type="hidden" name="revision" value={revision} />
      <div className={formStyles.checkRow}>
        <input
          type="checkbox"
          id="listing-confirm-close"
          name="confirmClose"
          value="1"
          className={formStyles.checkbox}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
        <label htmlFor="listing-confirm-close">募集を終了することを確認しました</label>
      </div>
      {error ? (
        <p id={errorId} className={formStyles.error}>
          {error}
        </p>
      ) : null}
      <div>
        <SubmitButton>募集を終了する</SubmitButton>
      </div>
    </form>
  );
}
