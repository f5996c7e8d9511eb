import type { ComponentProps, ReactNode } from 'react';
import formStyles from '@/components/forms/form.module.css';
import styles from './jobs-post.module.css';
import { Options } from '@/components/forms/options';
import { describeControl } from '@/components/forms/describe-control';

/**
 * The listing form's controls, rendered on the server (the form works without JavaScript):
 * each with its label, hint and the message of the last post beside it, tied together with
 * aria-describedby and aria-invalid. Fields are not `required` in HTML: a draft may be
 * incomplete, so the 「審査に必要」 mark is text a screen reader reads with the label.
 */

export const fieldId = (name: string) => `listing-${name}`;

type Common = {
  name: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  /** Needed to submit for review (not to save a draft). */
  neededForReview?: boolean;
  /** Shown under the control: e.g. that the text came back cut. */
  warning?: string;
};

function describedBy(name: string, common: Common) {
  const id = fieldId(name);
  return { id, ...describeControl(id, common) };
}

/** The frame's props (Common) apart from the control's own. */
function splitCommon<Props extends Common>({
  name,
  label,
  hint,
  error,
  neededForReview,
  warning,
  ...control
}: Props) {
  return { common: { name, label, hint, error, neededForReview, warning }, control };
}

function FieldFrame({ common, children }: { common: Common; children: ReactNode }) {
  const id = fieldId(common.name);
  return (
    <div className={formStyles.field}>
      <div className={formStyles.labelRow}>
        <label htmlFor={id} className={formStyles.label}>
          {common.label}
          {common.neededForReview ? <span className={styles.needed}>審査に必要</span> : null}
        </label>
      </div>
      {common.hint ? (
        <p id={`${id}-hint`} className={formStyles.hint}>
          {common.hint}
        </p>
      ) : null}
      {children}
      {common.warning ? (
        <p id={`${id}-warning`} className={styles.warning}>
          {common.warning}
        </p>
      ) : null}
      {common.error ? (
        <p id={`${id}-error`} className={formStyles.error}>
          {common.error}
        </p>
      ) : null}
    </div>
  );
}

type InputProps = Common & Omit<ComponentProps<'input'>, 'name' | 'id'>;

export function TextInput(props: InputProps) {
  const { common, control: input } = splitCommon(props);
  const { name } = common;
  return (
    <FieldFrame common={common}>
      <input
        type="text"
        {...input}
        name={name}
        className={formStyles.input}
        {...describedBy(name, common)}
      />
    </FieldFrame>
  );
}

type TextAreaProps = Common & Omit<ComponentProps<'textarea'>, 'name' | 'id'>;

export function TextAreaInput(props: TextAreaProps) {
  const { common, control: textarea } = splitCommon(props);
  const { name } = common;
  return (
    <FieldFrame common={common}>
      <textarea
        rows={6}
        {...textarea}
        name={name}
        className={`${formStyles.input} ${formStyles.textarea}`}
        {...describedBy(name, common)}
      />
    </FieldFrame>
  );
}

type SelectProps = Common &
  Omit<ComponentProps<'select'>, 'name' | 'id'> & {
    options: readonly string[];
    placeholder: string;
  };

export function SelectInput(props: SelectProps) {
  const {
    common,
    control: { options, placeholder, ...select },
  } = splitCommon(props);
  const { name } = common;
  return (
    <FieldFrame common={common}>
      <select {...select} name={name} className={formStyles.input} {...describedBy(name, common)}>
        <option value="">{placeholder}</option>
        <Options items={options} />
      </select>
    </FieldFrame>
  );
}

/** A group of fields under a legend (基本情報, 勤務地, …). */
export function FieldGroup({
  legend,
  hint,
  children,
}: {
  legend: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={styles.group}>
      <legend className={styles.legend}>{legend}</legend>
      {hint ? <p className={formStyles.hint}>{hint}</p> : null}
      <div className={styles.groupFields}>{children}</div>
    </fieldset>
  );
}
