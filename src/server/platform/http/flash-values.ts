import 'server-only';
import type { FormInput } from './form-endpoint';

/**
 * A plain post's typed text goes back in a one-time cookie (flash.ts), and a browser drops a
 * cookie past 4 KB whole (messages included). So at most a given number of UTF-8 bytes of each
 * field go back: the start of a long message, rather than nothing at all.
 */

export function clipUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > maxBytes) break;
    out += char;
  }
  return out;
}

/** An endpoint's flashValues: only the form's own text fields, each clipped to its bytes. */
export function clippedFields(maxBytes: Record<string, number>): (input: FormInput) => FormInput {
  return (input) => {
    const out: FormInput = {};
    for (const [key, max] of Object.entries(maxBytes)) {
      const value = input[key];
      if (typeof value === 'string') out[key] = clipUtf8(value, max);
    }
    return out;
  };
}
