'use client';

import { useEffect, useId, useRef, useState } from 'react';
import type { SlugField as SlugFieldData } from '@/lib/admin-content';
import { slugProblem } from '@/lib/cms/slug';
import { describeControl } from '@/components/forms/describe-control';
import contentStyles from './content.module.css';
import styles from './slug-field.module.css';
import { fieldIds } from './field-control.client';

/**
 * The editor's id field (docs/decisions/033-slugs-and-redirects.md): a new item's slug, typed
 * with the public URL it gives shown beside it; an existing item's id, changed on request (its
 * old URL then redirects to the new one).
 */

export type SlugFieldProps = {
  endpoint: string;
  slug: SlugFieldData;
  isNew: boolean;
  /** The item's id (an existing item). */
  id: string;
  /** The typed slug (a new item). */
  value: string;
  onChange: (value: string) => void;
  /** The save's refusal of the typed slug. */
  error?: string;
  disabled: boolean;
  /** Changes the id; resolves to why not (Japanese), or null once done. */
  onRename: (slug: string) => Promise<string | null>;
};

const HINT = '半角の英小文字・数字・ハイフンで、50 文字まで。';

function UrlLine({ id, prefix, slug }: { id: string; prefix: string | null; slug: string }) {
  return (
    <p id={id} className={`${contentStyles.hint} ${styles.url}`}>
      {prefix ? (
        <>
          公開URL: <span className={styles.address}>{`${prefix}${slug}`}</span>
        </>
      ) : (
        'この種類の項目にはサイトのページがありません。'
      )}
    </p>
  );
}

export function SlugField(props: SlugFieldProps) {
  return props.isNew ? <NewSlug {...props} /> : <ExistingSlug {...props} />;
}

function NewSlug({ endpoint, slug, value, onChange, error }: SlugFieldProps) {
  const ids = fieldIds('id');
  const typed = value.trim();
  const shown = error ?? (typed ? (slugProblem(endpoint, typed) ?? undefined) : undefined);
  const aria = describeControl(ids.control, { hint: true, error: shown });
  return (
    <div className={contentStyles.field}>
      <label id={ids.label} htmlFor={ids.control} className={contentStyles.label}>
        URL (ID)
      </label>
      <p id={ids.hint} className={contentStyles.hint}>
        {HINT}空欄のときは「{slug.suggestion}」になります。作成後も変更できます。
      </p>
      <input
        id={ids.control}
        className={contentStyles.input}
        value={value}
        placeholder={slug.suggestion}
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        inputMode="url"
        maxLength={100}
        onChange={(event) => onChange(event.target.value)}
        {...aria}
        aria-describedby={`${aria['aria-describedby']} ${ids.control}-url`}
      />
      <UrlLine id={`${ids.control}-url`} prefix={slug.urlPrefix} slug={typed || slug.suggestion} />
      {shown ? (
        <p id={ids.error} className={contentStyles.fieldError}>
          <span aria-hidden="true">⚠ </span>
          {shown}
        </p>
      ) : null}
    </div>
  );
}

function ExistingSlug({ endpoint, slug, id, disabled, onRename }: SlugFieldProps) {
  const ids = fieldIds('id');
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(id);
  const [error, setError] = useState<string | null>(null);
  const [previous, setPrevious] = useState(slug.previousIds);
  const input = useRef<HTMLInputElement>(null);
  // Opening the field puts the caret in it, at the end of the id.
  useEffect(() => {
    if (editing) input.current?.focus();
  }, [editing]);
  const typed = draft.trim();
  const aria = describeControl(ids.control, { hint: true, error });

  async function rename() {
    const problem = slugProblem(endpoint, typed);
    if (problem) return setError(problem);
    if (typed === id)
      return setError('今と同じ ID です。変更する場合は別の ID を入力してください。');
    const from = id;
    const refused = await onRename(typed);
    setError(refused);
    if (refused) return;
    setPrevious((ids) => [...ids.filter((old) => old !== typed), from]);
    setEditing(false);
  }

  return (
    <div className={contentStyles.field} role="group" aria-labelledby={headingId}>
      <p id={headingId} className={contentStyles.label}>
        URL (ID)
      </p>
      {editing ? (
        <>
          <label htmlFor={ids.control} className={contentStyles.hint}>
            新しい ID ({HINT}以前の URL は新しい URL へ転送されます)
          </label>
          <input
            ref={input}
            id={ids.control}
            className={contentStyles.input}
            value={draft}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            inputMode="url"
            maxLength={100}
            onChange={(event) => {
              setDraft(event.target.value);
              setError(null);
            }}
            onKeyDown={(event) => {
              // Enter changes the id, not the whole form's save.
              if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
                event.preventDefault();
                void rename();
              }
            }}
            {...aria}
          />
          <UrlLine id={ids.hint} prefix={slug.urlPrefix} slug={typed || id} />
          {error ? (
            <p id={ids.error} className={contentStyles.fieldError} role="alert">
              <span aria-hidden="true">⚠ </span>
              {error}
            </p>
          ) : null}
          <div className={styles.actions}>
            <button
              type="button"
              className={contentStyles.secondaryButton}
              disabled={disabled}
              onClick={() => void rename()}
            >
              URL を変更する
            </button>
            <button
              type="button"
              className={contentStyles.secondaryButton}
              onClick={() => {
                setEditing(false);
                setDraft(id);
                setError(null);
              }}
            >
              やめる
            </button>
          </div>
        </>
      ) : (
        <>
          <UrlLine id={ids.hint} prefix={slug.urlPrefix} slug={id} />
          {slug.renamable ? (
            <div className={styles.actions}>
              <button
                type="button"
                className={contentStyles.secondaryButton}
                disabled={disabled}
                onClick={() => {
                  setDraft(id);
                  setEditing(true);
                }}
              >
                URL (ID) を変更
              </button>
            </div>
          ) : null}
        </>
      )}
      {previous.length ? (
        <p className={contentStyles.hint}>
          以前の ID ({previous.join('、')}) の URL は、ここへ転送されます。
        </p>
      ) : null}
    </div>
  );
}
