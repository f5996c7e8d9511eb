'use client';

import type { ReactNode } from 'react';
import { MediaPicker } from '@/components/admin/media/media-picker.client';
import type { ReferenceOption } from '@/lib/admin-content';
import type { FieldDef } from '@/lib/cms/model';
import contentStyles from './content.module.css';
import styles from './field-control.module.css';
import {
  asMedia,
  asString,
  asStrings,
  charCount,
  isoToJstInput,
  jstInputToIso,
  mediaKindOf,
  rangeText,
} from './field-values';
import { optionLabel } from './option-labels';
import { ReferencePicker } from './reference-picker.client';
import { RichTextEditor } from './rich-text/rich-text-editor.client';
import { Options } from '@/components/forms/options';
import { describeControl } from '@/components/forms/describe-control';
import { formatNumber } from '@/lib/format';

/** The ids of a field's parts, so the error summary and the tests can find them. */
export const fieldIds = (fieldId: string) => {
  const control = `field-${fieldId}`;
  return {
    control,
    label: `${control}-label`,
    hint: `${control}-hint`,
    error: `${control}-error`,
  };
};

export type FieldControlProps = {
  field: FieldDef;
  value: unknown;
  error?: string;
  onChange: (value: unknown) => void;
  /** Labels of the items the item's relation fields point at, by endpoint. */
  references: Record<string, ReferenceOption[]>;
  /** The item's own id and endpoint: a list of related items never offers the item itself. */
  self: { endpoint: string; id: string };
  /** What visitors see of this field, when it is the one the paywall cuts (lead-rule.ts). */
  leadNote?: string | null;
};

/** What a field's hint says: limits an editor should know before the server says so. */
function hintText(field: FieldDef, value: unknown): string | null {
  const parts: string[] = [];
  if (field.urlPrefixes) parts.push(`${field.urlPrefixes.join(' または ')} で始まる URL`);
  if ((field.kind === 'text' || field.kind === 'textArea') && field.maxLength !== undefined) {
    const count = charCount(asString(value));
    parts.push(`${formatNumber(field.maxLength)}文字まで（現在 ${formatNumber(count)}文字）`);
  }
  if (field.kind === 'number') {
    const range = rangeText(field);
    if (range) parts.push(`${range}の${field.integer ? '整数' : '整数または小数'}`);
    if (field.forbiddenBy) parts.push('無料公開の記事には設定できません');
  }
  if (field.kind === 'date') parts.push('日本時間');
  if (field.kind === 'media') parts.push('メディアライブラリから画像を選ぶか、アップロードします');
  if (field.kind === 'file')
    parts.push('メディアライブラリからファイルを選ぶか、アップロードします');
  if (field.kind === 'relation' || field.kind === 'relationList')
    parts.push(
      field.kind === 'relationList'
        ? '名前を入力して候補から追加します。矢印ボタンで並べ替えられます'
        : '名前を入力して候補から選びます',
    );
  if (field.kind === 'select' && field.multiple) parts.push('複数選べます');
  return parts.length ? `${parts.join('。')}。` : null;
}

function RequiredMark({ field }: { field: FieldDef }) {
  // The space keeps the accessible name "タイトル 必須" rather than one run-on word.
  return field.required ? (
    <>
      {' '}
      <span className={styles.required}>必須</span>
    </>
  ) : null;
}

/** One field of the editor: its label, hint, control and error, tied together for readers. */
export function FieldControl(props: FieldControlProps) {
  const { field, value, error, onChange, leadNote } = props;
  const ids = fieldIds(field.id);
  const hint = [hintText(field, value), leadNote].filter(Boolean).join(' ') || null;
  const aria = describeControl(ids.control, { hint, error });

  const over =
    field.maxLength !== undefined &&
    (field.kind === 'text' || field.kind === 'textArea') &&
    charCount(asString(value)) > field.maxLength;

  const hintNode = hint ? (
    <p id={ids.hint} className={`${contentStyles.hint} ${over ? contentStyles.hintOver : ''}`}>
      {hint}
    </p>
  ) : null;
  const errorNode = error ? (
    <p id={ids.error} className={contentStyles.fieldError}>
      <span aria-hidden="true">⚠ </span>
      {error}
    </p>
  ) : null;

  // A group of checkboxes is named by its legend, not by a label.
  if (field.kind === 'select' && field.multiple) {
    const chosen = asStrings(value);
    return (
      <fieldset className={styles.fieldset} aria-describedby={aria['aria-describedby']}>
        <legend id={ids.label} className={contentStyles.label}>
          {field.label}
          <RequiredMark field={field} />
        </legend>
        {hintNode}
        <div className={styles.checks}>
          {(field.options ?? []).map((option, i) => (
            <label key={option} className={styles.check}>
              <input
                id={i === 0 ? ids.control : undefined}
                type="checkbox"
                checked={chosen.includes(option)}
                aria-invalid={aria['aria-invalid']}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? (field.options ?? []).filter((o) => o === option || chosen.includes(o))
                      : chosen.filter((o) => o !== option),
                  )
                }
              />
              {optionLabel(option)}
            </label>
          ))}
        </div>
        {errorNode}
      </fieldset>
    );
  }

  if (field.kind === 'boolean') {
    return (
      <div className={contentStyles.field}>
        <label className={styles.check} id={ids.label}>
          <input
            id={ids.control}
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
            {...aria}
          />
          <span className={contentStyles.label}>{field.label}</span>
        </label>
        {hintNode}
        {errorNode}
      </div>
    );
  }

  return (
    <div className={contentStyles.field}>
      <label id={ids.label} htmlFor={ids.control} className={contentStyles.label}>
        {field.label}
        <RequiredMark field={field} />
      </label>
      {hintNode}
      <Control {...props} ids={ids} aria={aria} />
      {errorNode}
    </div>
  );
}

function Control({
  field,
  value,
  onChange,
  ids,
  aria,
  references,
  self,
}: Pick<FieldControlProps, 'field' | 'value' | 'onChange' | 'references' | 'self'> & {
  ids: ReturnType<typeof fieldIds>;
  aria: { 'aria-describedby': string | undefined; 'aria-invalid': true | undefined };
}): ReactNode {
  const required = field.required || undefined;
  switch (field.kind) {
    case 'text':
      return (
        <input
          id={ids.control}
          type={field.urlPrefixes ? 'url' : field.address ? 'email' : 'text'}
          inputMode={field.urlPrefixes ? 'url' : undefined}
          className={contentStyles.input}
          value={asString(value)}
          aria-required={required}
          autoComplete="off"
          onChange={(event) => onChange(event.target.value)}
          {...aria}
        />
      );
    case 'textArea':
      return (
        <textarea
          id={ids.control}
          className={`${contentStyles.input} ${contentStyles.textarea}`}
          rows={5}
          value={asString(value)}
          aria-required={required}
          onChange={(event) => onChange(event.target.value)}
          {...aria}
        />
      );
    case 'number':
      return (
        <input
          id={ids.control}
          type="number"
          className={`${contentStyles.input} ${contentStyles.number}`}
          min={field.min}
          max={field.max}
          step="any"
          value={typeof value === 'number' ? String(value) : ''}
          aria-required={required}
          onChange={(event) => {
            const n = event.target.valueAsNumber;
            onChange(event.target.value === '' || Number.isNaN(n) ? null : n);
          }}
          {...aria}
        />
      );
    case 'date':
      return (
        <input
          id={ids.control}
          type="datetime-local"
          className={`${contentStyles.input} ${contentStyles.date}`}
          value={isoToJstInput(asString(value))}
          aria-required={required}
          onChange={(event) => onChange(jstInputToIso(event.target.value) ?? '')}
          {...aria}
        />
      );
    case 'select':
      return (
        <select
          id={ids.control}
          className={contentStyles.input}
          value={asStrings(value)[0] ?? ''}
          aria-required={required}
          onChange={(event) => onChange(event.target.value ? [event.target.value] : [])}
          {...aria}
        >
          <option value="">（選択しない）</option>
          <Options items={field.options ?? []} label={optionLabel} />
        </select>
      );
    case 'richEditor':
      return (
        <RichTextEditor
          id={ids.control}
          initialHtml={asString(value)}
          onChange={onChange}
          labelledBy={ids.label}
          describedBy={aria['aria-describedby']}
          invalid={aria['aria-invalid']}
        />
      );
    case 'media':
    case 'file':
      return (
        <MediaPicker
          id={ids.control}
          kind={mediaKindOf(field)}
          value={asMedia(value)}
          onChange={onChange}
          labelledBy={ids.label}
          describedBy={aria['aria-describedby']}
          invalid={aria['aria-invalid']}
        />
      );
    case 'relation':
    case 'relationList': {
      const endpoint = field.endpoint ?? '';
      const single = asString(value);
      return (
        <ReferencePicker
          id={ids.control}
          endpoint={endpoint}
          fieldLabel={field.label}
          multiple={field.kind === 'relationList'}
          value={field.kind === 'relationList' ? asStrings(value) : single ? [single] : []}
          onChange={(chosen) =>
            onChange(field.kind === 'relationList' ? chosen : (chosen[0] ?? null))
          }
          known={references[endpoint] ?? []}
          excludeId={endpoint === self.endpoint && self.id ? self.id : undefined}
          describedBy={aria['aria-describedby']}
          invalid={aria['aria-invalid']}
        />
      );
    }
  }
}
