import styles from '@/components/admin/users/users.module.css';
import { PendingSubmit } from './pending-submit.client';
import { transferPaths } from '@/lib/transfer/status';
import own from './transfer.module.css';

/** The page's one explanation of why no import is possible (the instance has content). */
export const REFUSAL_ID = 'transfer-refusal';

export type ImportFormProps = {
  /** Why the instance cannot take an import (it has content), or null; shown once, at REFUSAL_ID. */
  refusal: string | null;
  /** Another import is running. */
  busy: boolean;
  /** A failed post's messages for this form. */
  fieldErrors: Record<string, string>;
  formError: string | null;
};

const FILE_ID = 'transfer-archive';
const CONFIRM_ID = 'transfer-archive-confirm';

/** The archive upload: a plain multipart form, so it works without JavaScript. */
export function ArchiveImportForm({ refusal, busy, fieldErrors, formError }: ImportFormProps) {
  const describedBy = (id: string, hint?: string) =>
    [hint, fieldErrors[id === FILE_ID ? 'archive' : 'confirm'] ? `${id}-error` : null]
      .filter(Boolean)
      .join(' ') || undefined;
  return (
    <section className={styles.section} aria-labelledby="import-archive-title" id="import-archive">
      <h2 id="import-archive-title" className={styles.sectionTitle}>
        アーカイブから取り込む
      </h2>
      <p className={styles.lead}>
        このサイトで書き出したアーカイブを、コンテンツが 1
        件もない環境に取り込みます。すべての項目を確認してから保存し、途中で問題が見つかったときは何も取り込みません。既存のデータとの統合（マージ）はできません。
      </p>
      {formError ? (
        <p className={styles.alert} role="alert">
          {formError}
        </p>
      ) : null}
      <form
        method="post"
        action={transferPaths.importArchive}
        encType="multipart/form-data"
        className={styles.form}
        noValidate
      >
        <fieldset
          className={own.fieldset}
          disabled={!!refusal || busy}
          aria-describedby={refusal ? REFUSAL_ID : undefined}
        >
          <div className={styles.field}>
            <label htmlFor={FILE_ID} className={styles.label}>
              アーカイブ（.tar.gz）
            </label>
            <p id={`${FILE_ID}-hint`} className={styles.hint}>
              大きなファイルは送信に時間がかかります。完了するまでこのページを開いたままにしてください。
            </p>
            <input
              id={FILE_ID}
              name="archive"
              type="file"
              accept=".tar.gz,.tgz,application/gzip"
              required
              className={own.file}
              aria-invalid={fieldErrors.archive ? true : undefined}
              aria-describedby={describedBy(FILE_ID, `${FILE_ID}-hint`)}
            />
            {fieldErrors.archive ? (
              <p id={`${FILE_ID}-error`} className={styles.fieldError}>
                {fieldErrors.archive}
              </p>
            ) : null}
          </div>
          <div className={styles.field}>
            <label className={own.checkbox} htmlFor={CONFIRM_ID}>
              <input
                id={CONFIRM_ID}
                name="confirm"
                type="checkbox"
                required
                aria-invalid={fieldErrors.confirm ? true : undefined}
                aria-describedby={describedBy(CONFIRM_ID)}
              />
              <span>
                取り込み先のこの環境が空である（コンテンツもメディアもない）ことを確認しました。
              </span>
            </label>
            {fieldErrors.confirm ? (
              <p id={`${CONFIRM_ID}-error`} className={styles.fieldError}>
                {fieldErrors.confirm}
              </p>
            ) : null}
          </div>
          <div className={styles.actions}>
            <PendingSubmit pendingText="アーカイブを送信して取り込んでいます。完了するまでこのページを開いたままにしてください。">
              アーカイブを取り込む
            </PendingSubmit>
          </div>
        </fieldset>
      </form>
    </section>
  );
}
