import 'server-only';

/** The keys (relative paths) of stored media, checked by every storage implementation. */

export class StorageKeyError extends Error {
  constructor(key: string) {
    super(`不正な保存キーです: ${JSON.stringify(key.slice(0, 100))}`);
    this.name = 'StorageKeyError';
  }
}

export const STORAGE_KEY_MAX_LENGTH = 512;
const KEY_PATTERN = /^[a-z0-9_.-]+(?:\/[a-z0-9_.-]+)*$/;

/**
 * A key is lower-case letters, digits and `_ . - /`, relative, without empty segments and
 * without segments that start with a dot (so no `.`, `..` or hidden files). Percent signs,
 * backslashes, NUL bytes and anything non-ASCII are refused by the pattern itself.
 */
export function isValidStorageKey(key: unknown): key is string {
  return (
    typeof key === 'string' &&
    key.length > 0 &&
    key.length <= STORAGE_KEY_MAX_LENGTH &&
    KEY_PATTERN.test(key) &&
    key.split('/').every((segment) => !segment.startsWith('.'))
  );
}

export function assertValidStorageKey(key: string): void {
  if (!isValidStorageKey(key)) throw new StorageKeyError(key);
}
