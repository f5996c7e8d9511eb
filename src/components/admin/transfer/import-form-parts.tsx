import type { FormHTMLAttributes, ReactNode } from 'react';
import styles from '@/components/admin/users/users.module.css';
import own from './transfer.module.css';
import { StaffSection } from '@/components/admin/staff-list-page';

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

/**
 * One import's section: title, what it does, the failed post's message, and a plain form whose
 * fieldset is disabled while the instance cannot take an import; the form's own fields, then
 * the box every import asks to be ticked and the submit button.
 */
export function ImportFormSection({
  id,
  title,
  lead,
  form,
  state: { refusal, busy, fieldErrors, formError },
  submit,
  children,
}: {
  id: string;
  title: string;
  lead: ReactNode;
  form: Pick<FormHTMLAttributes<HTMLFormElement>, 'action' | 'encType'>;
  state: ImportFormProps;
  submit: ReactNode;
  children: ReactNode;
}) {
  return (
    <StaffSection id={id} title={title}>
      <p className={styles.lead}>{lead}</p>
      {formError ? (
        <p className={styles.alert} role="alert">
          {formError}
        </p>
      ) : null}
      <form method="post" {...form} className={styles.form} noValidate>
        <fieldset
          className={own.fieldset}
          disabled={!!refusal || busy}
          aria-describedby={refusal ? REFUSAL_ID : undefined}
        >
          {children}
          <EmptyInstanceConfirm id={`${id}-confirm`} error={fieldErrors.confirm} />
          <div className={styles.actions}>{submit}</div>
        </fieldset>
      </form>
    </StaffSection>
  );
}

/** The box every import asks to be ticked: the instance taking it is empty. */
function EmptyInstanceConfirm({ id, error }: { id: string; error: string | undefined }) {
  return (
    <div className={styles.field}>
      <label className={own.checkbox} htmlFor={id}>
        <input
          id={id}
          name="confirm"
          type="checkbox"
          className={own.box}
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <span>
          取り込み先のこの環境が空である（コンテンツもメディアもない）ことを確認しました。
        </span>
      </label>
      <FieldError id={id} error={error} />
    </div>
  );
}

function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} className={styles.fieldError}>
      {error}
    </p>
  ) : null;
}
