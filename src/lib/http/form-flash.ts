import type { Flash } from '@/lib/http/flash';

/**
 * A screen with many forms gets one one-time message back from a post (src/lib/http/flash.ts):
 * what went wrong, or (with DONE_FLAG) what was done. The form's hidden `formKey` comes back
 * with a failure, so each form takes only its own errors and typed values.
 */

export const FORM_KEY = 'formKey';
/** Set in the values of a one-time message that says what an action did (not what failed). */
export const DONE_FLAG = 'done';

/** The message of a one-time success, or null. */
export function doneMessage(flash: Flash | null): string | null {
  return flash?.values[DONE_FLAG] === '1' ? flash.message : null;
}

/** The one-time message when it is a failure (the forms' errors and typed values), else null. */
export function failure(flash: Flash | null): Flash | null {
  return flash && flash.values[DONE_FLAG] !== '1' ? flash : null;
}

export function flashKey(flash: Flash | null): string | null {
  const key = flash?.values[FORM_KEY];
  return typeof key === 'string' ? key : null;
}

/** The flash when it belongs to the form `key`, else null. */
export function flashFor(flash: Flash | null, key: string): Flash | null {
  return flash && flashKey(flash) === key ? flash : null;
}

/** What was typed in a text field of that form, to put back. */
export function typedIn(flash: Flash | null, name: string): string | undefined {
  const value = flash?.values[name];
  return typeof value === 'string' ? value : undefined;
}
