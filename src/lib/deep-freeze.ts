/**
 * Freezes a value and everything it holds, so that one value can be handed to many readers:
 * a reader that tries to change it fails at once (strict mode throws) instead of changing what
 * the next reader, of another audience, gets. Walks plain objects and arrays only; a value
 * already frozen is taken as frozen through (what this function froze).
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
