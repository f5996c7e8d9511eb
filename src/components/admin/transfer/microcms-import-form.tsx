import styles from '@/components/admin/users/users.module.css';
import { Button } from '@/components/ui/button';
import { type ImportFormProps, REFUSAL_ID } from './archive-import-form';
import { transferPaths } from '@/lib/transfer/status';
import own from './transfer.module.css';

type Props = ImportFormProps & { typedBaseUrl: string };

const URL_ID = 'transfer-microcms-url';
const KEY_ID = 'transfer-microcms-key';
const CONFIRM_ID = 'transfer-microcms-confirm';

/** The microCMS import: base URL and key, then the job runs on the server and this page follows it. */
export function MicroCmsImportForm({ refusal, busy, fieldErrors, formError, typedBaseUrl }: Props) {
  const describedBy = (ids: (string | false)[]) => ids.filter(Boolean).join(' ') || undefined;
  return (
    <section
      className={styles.section}
      aria-labelledby="import-microcms-title"
      id="import-microcms"
    >
      <h2 id="import-microcms-title" className={styles.sectionTitle}>
        microCMS から取り込む
      </h2>
      <p className={styles.lead}>
        利用中の microCMS から、このサイトのコンテンツモデルにあるすべての
        API（記事、特集、執筆者、固定ページなど）を 1 ページ 100 件ずつ読み込みます。microCMS
        の利用制限を超えないよう間隔をあけて読み、混み合っているときは待ってから続けます。ID・作成日時・公開日時・参照はそのまま引き継ぎ、画像やファイルはこのサイトに保存し直して
        URL を置き換えます。空の環境にだけ取り込めます。
      </p>
      {formError ? (
        <p className={styles.alert} role="alert">
          {formError}
        </p>
      ) : null}
      <form method="post" action={transferPaths.importMicroCms} className={styles.form} noValidate>
        <fieldset
          className={own.fieldset}
          disabled={!!refusal || busy}
          aria-describedby={refusal ? REFUSAL_ID : undefined}
        >
          <div className={styles.field}>
            <label htmlFor={URL_ID} className={styles.label}>
              API の URL
            </label>
            <p id={`${URL_ID}-hint`} className={styles.hint}>
              例：https://your-service.microcms.io/api/v1
            </p>
            <input
              id={URL_ID}
              name="baseUrl"
              type="url"
              inputMode="url"
              required
              maxLength={300}
              autoComplete="off"
              spellCheck={false}
              defaultValue={typedBaseUrl}
              className={styles.input}
              aria-invalid={fieldErrors.baseUrl ? true : undefined}
              aria-describedby={describedBy([
                `${URL_ID}-hint`,
                !!fieldErrors.baseUrl && `${URL_ID}-error`,
              ])}
            />
            {fieldErrors.baseUrl ? (
              <p id={`${URL_ID}-error`} className={styles.fieldError}>
                {fieldErrors.baseUrl}
              </p>
            ) : null}
          </div>
          <div className={styles.field}>
            <label htmlFor={KEY_ID} className={styles.label}>
              API キー
            </label>
            <p id={`${KEY_ID}-hint`} className={styles.hint}>
              GET
              権限のあるキーを入力してください。キーは取り込みの間だけ使い、保存も記録もしません。
            </p>
            <input
              id={KEY_ID}
              name="apiKey"
              type="password"
              required
              maxLength={200}
              autoComplete="off"
              spellCheck={false}
              className={styles.input}
              aria-invalid={fieldErrors.apiKey ? true : undefined}
              aria-describedby={describedBy([
                `${KEY_ID}-hint`,
                !!fieldErrors.apiKey && `${KEY_ID}-error`,
              ])}
            />
            {fieldErrors.apiKey ? (
              <p id={`${KEY_ID}-error`} className={styles.fieldError}>
                {fieldErrors.apiKey}
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
                aria-describedby={describedBy([!!fieldErrors.confirm && `${CONFIRM_ID}-error`])}
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
            <Button type="submit" color="black" width="auto" height={44}>
              取り込みを始める
            </Button>
          </div>
        </fieldset>
      </form>
    </section>
  );
}
