/**
 * One-time messages for a form posted without JavaScript: the account endpoint answers 303
 * back to the form and leaves the messages and what was typed in FLASH_COOKIE; the front server
 * (src/server/features/front/page-requests.ts) moves it into a request header for that one page
 * view and deletes it.
 */
export const FLASH_HEADER = 'x-axis-flash';

export type Flash = {
  message: string | null;
  fieldErrors: Record<string, string>;
  values: Record<string, string | string[]>;
};

export function encodeFlash(flash: Flash): string {
  return Buffer.from(JSON.stringify(flash)).toString('base64url');
}

export function decodeFlash(value: string | null | undefined): Flash | null {
  if (!value || value.length > 8000) return null;
  try {
    const parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Partial<Flash>;
    const strings = (o: unknown) =>
      typeof o === 'object' && o !== null && !Array.isArray(o)
        ? (o as Record<string, unknown>)
        : {};
    const fieldErrors: Record<string, string> = {};
    for (const [k, v] of Object.entries(strings(parsed.fieldErrors)))
      if (typeof v === 'string') fieldErrors[k] = v;
    const values: Record<string, string | string[]> = {};
    for (const [k, v] of Object.entries(strings(parsed.values))) {
      if (typeof v === 'string') values[k] = v;
      else if (Array.isArray(v)) values[k] = v.filter((x): x is string => typeof x === 'string');
    }
    return {
      message: typeof parsed.message === 'string' ? parsed.message : null,
      fieldErrors,
      values,
    };
  } catch {
    return null;
  }
}
