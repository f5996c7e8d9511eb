import type { ReactNode } from 'react';

/** A column: its heading, or one read only by screen readers (`hidden`), or with a class. */
export type TableColumn = string | { label: string; hidden?: boolean; className?: string };

/**
 * A table's header row: one `<th scope="col">` a column, so every data table names its columns
 * the same way for screen readers. `before` leads the row (a select-all checkbox cell).
 */
export function TableHead({
  columns,
  before,
}: {
  columns: readonly TableColumn[];
  before?: ReactNode;
}) {
  return (
    <thead>
      <tr>
        {before}
        {columns.map((column) => {
          const { label, hidden, className } =
            typeof column === 'string'
              ? { label: column, hidden: false, className: undefined }
              : column;
          return (
            <th key={label} scope="col" className={className}>
              {hidden ? <span className="visually-hidden">{label}</span> : label}
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
