import { Button } from '@/components/ui/button';
import styles from '@/components/biz/biz-admin.module.css';
import { PERMISSION_CHOICES, permissionField } from '@/lib/cms/api-key-permissions';
import own from './api-keys.module.css';

type Props = {
  /** A failed plain post's field messages and what was typed (src/lib/http/flash.ts). */
  fieldErrors: Record<string, string>;
  typed: Record<string, string | string[]> | null;
};

const NAME_ID = 'api-key-name';
const PERMISSIONS_ERROR_ID = 'api-key-permissions-error';

/**
 * キーを作成: a name and the permissions, a plain form (the new key comes back on the next page
 * load, never to a script). Read-only by default: a key should have no more than it needs.
 */
export function CreateApiKeyForm({ fieldErrors, typed }: Props) {
  const nameError = fieldErrors.name;
  const permissionsError = fieldErrors.permissions;
  const typedName = typeof typed?.name === 'string' ? typed.name : '';
  const checked = (field: string, byDefault: boolean) =>
    typed ? typed[field] === 'on' || typed[field] === '1' : byDefault;
  return (
    <section className={styles.section} aria-labelledby="create-key-title" id="create-key">
      <h2 id="create-key-title" className={styles.sectionTitle}>
        キーを作成
      </h2>
      <p className={styles.lead}>
        キーは作成の直後に一度だけ表示されます。外部のサービスやスクリプトごとに分けて作成し、必要な権限だけを与えてください。
      </p>
      <form method="post" action="/api/admin/api-keys" className={own.form} noValidate>
        <div className={own.field}>
          <label htmlFor={NAME_ID} className={own.label}>
            名前
          </label>
          <p id={`${NAME_ID}-hint`} className={own.hint}>
            用途がわかる名前（例：ニュースレター配信、サイト移行用スクリプト）。100 文字まで。
          </p>
          <input
            id={NAME_ID}
            name="name"
            type="text"
            required
            maxLength={100}
            autoComplete="off"
            defaultValue={typedName}
            className={own.input}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={[`${NAME_ID}-hint`, nameError ? `${NAME_ID}-error` : null]
              .filter(Boolean)
              .join(' ')}
          />
          {nameError ? (
            <p id={`${NAME_ID}-error`} className={own.error}>
              {nameError}
            </p>
          ) : null}
        </div>
        <fieldset
          className={own.fieldset}
          aria-describedby={permissionsError ? PERMISSIONS_ERROR_ID : undefined}
        >
          <legend className={own.label}>権限</legend>
          {permissionsError ? (
            <p id={PERMISSIONS_ERROR_ID} className={own.error}>
              {permissionsError}
            </p>
          ) : null}
          <ul className={own.choices}>
            {PERMISSION_CHOICES.map(({ permission, label, hint }) => {
              const field = permissionField(permission);
              return (
                <li key={permission} className={own.choice}>
                  <input
                    type="checkbox"
                    id={field}
                    name={field}
                    defaultChecked={checked(field, permission === 'GET')}
                    aria-describedby={`${field}-hint`}
                    className={own.checkbox}
                  />
                  <div>
                    <label htmlFor={field} className={own.choiceLabel}>
                      {label} <span className={own.method}>{permission}</span>
                    </label>
                    <p id={`${field}-hint`} className={own.hint}>
                      {hint}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <div>
          <Button type="submit" color="yellow" width="auto" height={48}>
            キーを作成
          </Button>
        </div>
      </form>
    </section>
  );
}
