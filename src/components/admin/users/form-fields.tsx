import type { ComponentProps, ReactNode } from 'react';
import styles from './users.module.css';
import { Options } from '@/components/forms/options';
import { describeControl } from '@/components/forms/describe-control';

/**
 * Labelled controls for the plain (no-JavaScript) forms of the user's page: the error of a
 * failed post beside its control, tied to it with aria-describedby and aria-invalid.
 */

function Around({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p id={`${id}-error`} className={styles.fieldError}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function SelectRow({
  id,
  name,
  label,
  hint,
  error,
  options,
  ...select
}: Omit<ComponentProps<'select'>, 'id' | 'name'> & {
  id: string;
  name: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <Around id={id} label={label} hint={hint} error={error}>
      <select
        {...select}
        id={id}
        name={name}
        className={styles.input}
        {...describeControl(id, { hint, error })}
      >
        <Options items={options} value={(o) => o.value} label={(o) => o.label} />
      </select>
    </Around>
  );
}

export function InputRow({
  id,
  name,
  label,
  hint,
  error,
  className = styles.input,
  ...input
}: Omit<ComponentProps<'input'>, 'id' | 'name'> & {
  id: string;
  name: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
}) {
  return (
    <Around id={id} label={label} hint={hint} error={error}>
      <input
        {...input}
        id={id}
        name={name}
        className={className}
        {...describeControl(id, { hint, error })}
      />
    </Around>
  );
}
