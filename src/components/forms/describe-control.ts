/** The notes a labelled control may have beside it, each an element `${id}-<part>` when shown. */
type Shown = { hint?: unknown; warning?: unknown; error?: unknown };

/**
 * aria-invalid and aria-describedby of the control `id`: its hint, warning and error (in that
 * order, each only where it is shown) describe it; an error marks it invalid.
 */
export function describeControl(id: string, shown: Shown) {
  const ids = (['hint', 'warning', 'error'] as const)
    .filter((part) => shown[part])
    .map((part) => `${id}-${part}`);
  return {
    'aria-invalid': shown.error ? true : undefined,
    'aria-describedby': ids.length > 0 ? ids.join(' ') : undefined,
  } as const;
}
