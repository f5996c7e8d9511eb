import type { ReactNode } from 'react';

/**
 * A select's choices: one `<option>` an item, its value by `value` (the item itself by default)
 * and its text by `label` (the value by default).
 */
export function Options<T>({
  items,
  value = String,
  label,
}: {
  items: readonly T[];
  value?: (item: T) => string;
  label?: (item: T) => ReactNode;
}) {
  return (
    <>
      {items.map((item) => {
        const v = value(item);
        return (
          <option key={v} value={v}>
            {label ? label(item) : v}
          </option>
        );
      })}
    </>
  );
}
