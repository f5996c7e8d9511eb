import { AppError } from '@/lib/errors';

/** The keys (relative paths) of stored media, checked by every storage implementation. */

/** A key outside the rules (a path that climbs out, odd characters): a refused request. */
export class StorageKeyError extends AppError {
  constructor(key: string) {
    super(`不正な保存キーです: ${JSON.stringify(key.slice(0, 100))}`, {
      status: 400,
      code: 'invalid-storage-key',
    });
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
