'use client';

import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * 「すべて選択」 for the checkboxes of a form (by its id): checks or clears every box of
 * `name` that belongs to it. Shown only once the page runs JavaScript; without it each row's
 * own box still works.
 */
export function SelectAll({ form, name, label }: { form: string; name: string; label: string }) {
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  if (!hydrated) return null;
  const boxes = () =>
    Array.from(
      document.querySelectorAll<HTMLInputElement>(
        `input[type="checkbox"][form="${CSS.escape(form)}"][name="${CSS.escape(name)}"]`,
      ),
    );
  return (
    <input
      type="checkbox"
      aria-label={label}
      onChange={(event) => {
        for (const box of boxes()) box.checked = event.currentTarget.checked;
      }}
    />
  );
}
