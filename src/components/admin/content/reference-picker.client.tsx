'use client';

import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { CONSOLE_STATUS_LABELS, type ReferenceOption } from '@/lib/admin-content';
import contentStyles from './content.module.css';
import styles from './reference-picker.module.css';
import { useConsoleLookup } from './use-console-lookup';

export type ReferencePickerProps = {
  /** The search input's id (the field's label points at it). */
  id: string;
  /** The endpoint searched. */
  endpoint: string;
  /** The field's name, for the buttons' accessible names. */
  fieldLabel: string;
  multiple: boolean;
  /** The chosen ids, in order. */
  value: string[];
  onChange: (ids: string[]) => void;
  /** Labels of items already known (the item's references). */
  known: readonly ReferenceOption[];
  /** An id never offered (the item itself, for a list of related items). */
  excludeId?: string;
  describedBy?: string;
  invalid?: boolean;
};

/**
 * A searchable reference picker: a WAI-ARIA combobox whose listbox lists the endpoint's items
 * matching what is typed (arrows move, Enter picks, Esc closes), and the chosen items as chips
 * that can be removed and, for a list, moved up and down (the order is the site's order).
 */
export function ReferencePicker({
  id,
  endpoint,
  fieldLabel,
  multiple,
  value,
  onChange,
  known,
  excludeId,
  describedBy,
  invalid,
}: ReferencePickerProps) {
  const listId = `${id}-listbox`;
  const statusId = useId();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [labels, setLabels] = useState<ReadonlyMap<string, ReferenceOption>>(
    () => new Map(known.map((o) => [o.id, o])),
  );
  const inputRef = useRef<HTMLInputElement>(null);
  const chipButtons = useRef(new Map<string, HTMLButtonElement>());
  const [focusAfterMove, setFocusAfterMove] = useState<string | null>(null);

  // Asked a moment after the last keystroke; a newer query wins.
  const lookup = useConsoleLookup(endpoint, query, open, () => setActive(-1));

  useEffect(() => {
    if (!focusAfterMove) return;
    chipButtons.current.get(focusAfterMove)?.focus();
    setFocusAfterMove(null);
  }, [focusAfterMove, value]);

  const options = lookup.state === 'done' ? lookup.items.filter((o) => o.id !== excludeId) : [];
  // Expanded only when there is a list to see; loading and no results are said in words.
  const expanded = open && options.length > 0;

  function pick(option: ReferenceOption) {
    setLabels((prev) => new Map(prev).set(option.id, option));
    if (multiple) {
      if (!value.includes(option.id)) onChange([...value, option.id]);
    } else {
      onChange([option.id]);
    }
    setQuery('');
    setOpen(false);
    setActive(-1);
  }

  function remove(itemId: string) {
    onChange(value.filter((v) => v !== itemId));
    inputRef.current?.focus();
  }

  function move(itemId: string, by: -1 | 1, buttonKey: string) {
    const from = value.indexOf(itemId);
    const to = from + by;
    if (from < 0 || to < 0 || to >= value.length) return;
    const next = [...value];
    next.splice(from, 1);
    next.splice(to, 0, itemId);
    onChange(next);
    // The moved chip's button keeps the focus (or its sibling when it reached an end).
    const edge = to === 0 || to === next.length - 1;
    setFocusAfterMove(edge ? `${itemId}:${by === -1 ? 'down' : 'up'}` : buttonKey);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) setOpen(true);
        else if (options.length) setActive((a) => (a + 1) % options.length);
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (options.length) setActive((a) => (a <= 0 ? options.length - 1 : a - 1));
        break;
      case 'Enter': {
        // Enter picks here; it must not submit the editor's form.
        if (!expanded) return;
        event.preventDefault();
        const option = options[active];
        if (option) pick(option);
        break;
      }
      case 'Escape':
        if (open) {
          event.preventDefault();
          setOpen(false);
          setActive(-1);
        } else if (query) {
          event.preventDefault();
          setQuery('');
        }
        break;
    }
  }

  const statusText =
    !open || lookup.state === 'idle'
      ? ''
      : lookup.state === 'loading'
        ? '検索中…'
        : lookup.state === 'failed'
          ? '候補を読み込めませんでした。もう一度入力してください。'
          : options.length
            ? `${options.length}件の候補があります。上下の矢印キーで選び、Enter で決定します。`
            : '一致する項目がありません。';

  const chosenLabel = (itemId: string) => labels.get(itemId)?.label ?? itemId;

  return (
    <div className={styles.picker}>
      {value.length ? (
        <ol className={styles.chips} aria-label={`選択中の${fieldLabel}`}>
          {value.map((itemId, index) => {
            const option = labels.get(itemId);
            const name = chosenLabel(itemId);
            return (
              <li key={itemId} className={styles.chip}>
                <span className={styles.chipLabel}>
                  {name}
                  {option ? (
                    option.status === 'published' ? null : (
                      <span className={styles.chipStatus}>
                        （{CONSOLE_STATUS_LABELS[option.status]}）
                      </span>
                    )
                  ) : (
                    <span className={styles.chipStatus}>（ID）</span>
                  )}
                </span>
                {multiple && value.length > 1 ? (
                  <>
                    <button
                      type="button"
                      className={styles.chipButton}
                      aria-label={`${name}を上へ移動`}
                      disabled={index === 0}
                      ref={(el) => {
                        if (el) chipButtons.current.set(`${itemId}:up`, el);
                        else chipButtons.current.delete(`${itemId}:up`);
                      }}
                      onClick={() => move(itemId, -1, `${itemId}:up`)}
                    >
                      <span aria-hidden="true">↑</span>
                    </button>
                    <button
                      type="button"
                      className={styles.chipButton}
                      aria-label={`${name}を下へ移動`}
                      disabled={index === value.length - 1}
                      ref={(el) => {
                        if (el) chipButtons.current.set(`${itemId}:down`, el);
                        else chipButtons.current.delete(`${itemId}:down`);
                      }}
                      onClick={() => move(itemId, 1, `${itemId}:down`)}
                    >
                      <span aria-hidden="true">↓</span>
                    </button>
                  </>
                ) : null}
                <button
                  type="button"
                  className={styles.chipButton}
                  aria-label={`${name}を外す`}
                  onClick={() => remove(itemId)}
                >
                  <span aria-hidden="true">×</span>
                </button>
              </li>
            );
          })}
        </ol>
      ) : null}
      <div className={styles.combo}>
        <input
          ref={inputRef}
          id={id}
          type="text"
          role="combobox"
          className={contentStyles.input}
          autoComplete="off"
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && options[active] ? `${listId}-${active}` : undefined}
          aria-describedby={[describedBy, statusId].filter(Boolean).join(' ')}
          aria-invalid={invalid || undefined}
          placeholder={multiple ? '検索して追加' : value.length ? '検索して変更' : '検索して選択'}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onBlur={() => setOpen(false)}
          onKeyDown={onKeyDown}
        />
        <ul
          id={listId}
          role="listbox"
          aria-label={`${fieldLabel}の候補`}
          className={styles.listbox}
          hidden={!expanded}
        >
          {options.map((option, index) => {
            const chosen = value.includes(option.id);
            return (
              <li
                key={option.id}
                id={`${listId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={styles.option}
                // mousedown, not click: the input keeps its focus (its blur would close the list).
                onMouseDown={(event) => {
                  event.preventDefault();
                  pick(option);
                }}
              >
                <span>{option.label}</span>
                <span className={styles.optionMeta}>
                  {CONSOLE_STATUS_LABELS[option.status]}
                  {chosen ? '・選択済み' : ''}
                </span>
              </li>
            );
          })}
        </ul>
      </div>
      <p id={statusId} className={styles.pickerStatus} role="status" aria-live="polite">
        {statusText}
      </p>
    </div>
  );
}
