/**
 * The id a relation field's value points at: stored as the id, read back (with depth) as the
 * item itself; null when it points nowhere. Apart from the content model, so that the editor's
 * client code takes this function without the whole model.
 */
export function relationId(value: unknown): string | null {
  if (typeof value === 'string') return value || null;
  if (value && typeof value === 'object' && 'id' in value && typeof value.id === 'string')
    return value.id;
  return null;
}
