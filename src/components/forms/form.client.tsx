'use client';

import {
  type ComponentProps,
  type FormEvent,
  type ReactNode,
  createContext,
  useContext,
  useId,
  useRef,
  useState,
} from 'react';
import { Button, type ButtonColor } from '@/components/ui/button';
import { announceLoginChange } from '@/components/account/auth-state.client';
import styles from './form.module.css';
import { Options } from '@/components/forms/options';
import { describeControl } from './describe-control';

/**
 * A form of the site (account screens, contact). It is a real HTML form posting to an endpoint
 * built on src/server/platform/http/form-endpoint.ts, so it works before (or without) JavaScript: the
 * server then answers 303 and the page shows its messages. With JavaScript it posts with fetch,
 * shows each message beside its field, keeps what was typed, and moves on with a full page load
 * (the login state may have changed).
 */

type Errors = { message: string | null; fieldErrors: Record<string, string> };
const ErrorsContext = createContext<Errors>({ message: null, fieldErrors: {} });

export type PostFormProps = {
  /** The endpoint, e.g. `/api/account/sign-in`. */
  action: string;
  submitLabel: string;
  submitColor?: ButtonColor;
  children?: ReactNode;
  /** Messages from a post without JavaScript (src/lib/http/flash.ts). */
  initialErrors?: Errors | null;
  multipart?: boolean;
  /** Sign-in, sign-out and deletion change who is signed in: other tabs are told. */
  changesLogin?: boolean;
  fullWidthSubmit?: boolean;
};

type Answer = {
  ok: boolean;
  message?: string | null;
  redirectTo?: string | null;
  fieldErrors?: Record<string, string>;
};

export function PostForm({
  action,
  submitLabel,
  submitColor = 'yellow',
  children,
  initialErrors,
  multipart,
  changesLogin,
  fullWidthSubmit = true,
}: PostFormProps) {
  const [errors, setErrors] = useState<Errors>(initialErrors ?? { message: null, fieldErrors: {} });
  const [pending, setPending] = useState(false);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const formRef = useRef<HTMLFormElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    let answer: Answer;
    try {
      const response = await fetch(action, {
        method: 'POST',
        body: new FormData(event.currentTarget),
        headers: { accept: 'application/json' },
      });
      answer = (await response.json()) as Answer;
    } catch {
      answer = {
        ok: false,
        message: '通信できませんでした。接続を確かめて、もう一度お試しください。',
      };
    }
    if (answer.ok) {
      if (changesLogin) announceLoginChange();
      window.location.assign(answer.redirectTo ?? '/');
      return; // the spinner stays until the next page
    }
    setPending(false);
    const fieldErrors = answer.fieldErrors ?? {};
    setErrors({ message: answer.message ?? null, fieldErrors });
    // Focus the first field in error, or the message when no field is to blame.
    requestAnimationFrame(() => {
      const first = Object.keys(fieldErrors)[0];
      const field = first
        ? formRef.current?.querySelector<HTMLElement>(`[name="${CSS.escape(first)}"]`)
        : null;
      (field ?? messageRef.current)?.focus();
    });
  }

  return (
    <ErrorsContext.Provider value={errors}>
      <form
        ref={formRef}
        method="post"
        action={action}
        encType={multipart ? 'multipart/form-data' : undefined}
        onSubmit={(event) => void submit(event)}
        noValidate
        className={styles.form}
      >
        {errors.message ? (
          <p ref={messageRef} role="alert" tabIndex={-1} className={styles.formError}>
            {errors.message}
          </p>
        ) : null}
        {children}
        <Button
          type="submit"
          color={submitColor}
          loading={pending}
          fullWidth={fullWidthSubmit}
          height={48}
        >
          {submitLabel}
        </Button>
      </form>
    </ErrorsContext.Provider>
  );
}

function useFieldError(name: string): string | undefined {
  return useContext(ErrorsContext).fieldErrors[name];
}

/** The message under a field; its id is what the control's aria-describedby points at. */
function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={id} className={styles.error}>
      {error}
    </p>
  ) : null;
}

/** A control's label with the 必須 mark (hidden from screen readers: `required` says it) and hint. */
function FieldLabel({
  fieldId,
  label,
  required,
  hint,
}: {
  fieldId: string;
  label: string;
  required?: boolean;
  hint?: string;
}) {
  return (
    <>
      <div className={styles.labelRow}>
        <label htmlFor={fieldId} className={styles.label}>
          {label}
        </label>
        {required ? (
          <span className={styles.required} aria-hidden="true">
            必須
          </span>
        ) : null}
      </div>
      {hint ? (
        <p id={`${fieldId}-hint`} className={styles.hint}>
          {hint}
        </p>
      ) : null}
    </>
  );
}

type FieldProps = Omit<ComponentProps<'input'>, 'name'> & {
  name: string;
  label: string;
  hint?: string;
};

/** A labelled input with its hint and its error beside it. */
export function Field({ name, label, hint, id, className, ...input }: FieldProps) {
  const generated = useId();
  const fieldId = id ?? generated;
  const error = useFieldError(name);
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <FieldLabel fieldId={fieldId} label={label} required={input.required} hint={hint} />
      <input
        {...input}
        id={fieldId}
        name={name}
        className={styles.input}
        {...describeControl(fieldId, { hint, error })}
      />
      <FieldError id={`${fieldId}-error`} error={error} />
    </div>
  );
}

type TextAreaProps = Omit<ComponentProps<'textarea'>, 'name'> & {
  name: string;
  label: string;
  hint?: string;
};

/** A labelled multi-line text with its hint and its error beside it. */
export function TextArea({ name, label, hint, ...textarea }: TextAreaProps) {
  const fieldId = useId();
  const error = useFieldError(name);
  return (
    <div className={styles.field}>
      <FieldLabel fieldId={fieldId} label={label} required={textarea.required} hint={hint} />
      <textarea
        rows={8}
        {...textarea}
        id={fieldId}
        name={name}
        className={`${styles.input} ${styles.textarea}`}
        {...describeControl(fieldId, { hint, error })}
      />
      <FieldError id={`${fieldId}-error`} error={error} />
    </div>
  );
}

type SelectProps = Omit<ComponentProps<'select'>, 'name'> & {
  name: string;
  label: string;
  options: readonly string[];
  placeholder: string;
};

export function SelectField({ name, label, options, placeholder, ...select }: SelectProps) {
  const fieldId = useId();
  const error = useFieldError(name);
  return (
    <div className={styles.field}>
      <FieldLabel fieldId={fieldId} label={label} required={select.required} />
      <select
        {...select}
        id={fieldId}
        name={name}
        className={styles.input}
        {...describeControl(fieldId, { error })}
      >
        <option value="">{placeholder}</option>
        <Options items={options} />
      </select>
      <FieldError id={`${fieldId}-error`} error={error} />
    </div>
  );
}

type CheckboxProps = Omit<ComponentProps<'input'>, 'name' | 'type'> & {
  name: string;
  children: ReactNode;
};

export function Checkbox({ name, children, ...input }: CheckboxProps) {
  const fieldId = useId();
  const error = useFieldError(name);
  return (
    <div className={styles.field}>
      <div className={styles.checkRow}>
        <input
          {...input}
          type="checkbox"
          id={fieldId}
          name={name}
          className={styles.checkbox}
          {...describeControl(fieldId, { error })}
        />
        <label htmlFor={fieldId}>{children}</label>
      </div>
      <FieldError id={`${fieldId}-error`} error={error} />
    </div>
  );
}

/** A group of checkboxes sharing one name (several values), in a fieldset with a legend. */
export function CheckboxGroup({
  name,
  legend,
  options,
  defaultValues,
}: {
  name: string;
  legend: string;
  options: readonly string[];
  defaultValues: readonly string[];
}) {
  const error = useFieldError(name);
  const errorId = useId();
  return (
    <fieldset className={styles.fieldset} aria-describedby={error ? errorId : undefined}>
      <legend className={styles.label}>{legend}</legend>
      <div className={styles.choices}>
        {options.map((option) => (
          <label key={option} className={styles.choice}>
            <input
              type="checkbox"
              name={name}
              value={option}
              defaultChecked={defaultValues.includes(option)}
              className={styles.checkbox}
            />
            {option}
          </label>
        ))}
      </div>
      <FieldError id={errorId} error={error} />
    </fieldset>
  );
}
