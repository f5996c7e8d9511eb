import { z } from 'zod';
import { formatNumber } from '@/lib/format';

// Validation messages in Japanese everywhere: import `z` from here, not from 'zod'.
z.config(z.locales.ja());
// In the browser zod must not test whether it may compile parsers with `Function("")`: the page's
// CSP forbids eval, and the test shows up as a violation report on every page that parses an
// object (the editor's presence answers). Compiled parsers only speed up the server.
if (typeof window !== 'undefined') z.config({ jitless: true });

export { z };

/**
 * A required text field of a form, trimmed, with the messages the forms give: 「〇〇を入力して
 * ください。」 when it is missing or blank, 「〇〇は2,000文字以内で入力してください。」 past `max`.
 */
export function requiredText(label: string, max: number) {
  const missing = { error: `${label}を入力してください。` };
  return z
    .string(missing)
    .trim()
    .min(1, missing)
    .max(max, { error: `${label}は${formatNumber(max)}文字以内で入力してください。` });
}

/**
 * An optional calendar day of a form, `YYYY-MM-DD` ('' when left blank; full-width digits and
 * a `/` as typed on a Japanese keyboard are read as written in ASCII): a day that does not exist
 * (2026-02-30, 2026-13-45) is refused with 「〇〇は 2027-03-31 の形式で、実在する日付を入力して
 * ください。」, never rolled over to another day or dropped as Date.parse would. Every day a
 * staff or partner form takes goes through here.
 */
export function optionalDay(label: string) {
  const message = { error: `${label}は 2027-03-31 の形式で、実在する日付を入力してください。` };
  return z
    .string(message)
    .trim()
    .transform((v) => v.normalize('NFKC').replace(/\//g, '-'))
    .refine((v) => v === '' || z.iso.date().safeParse(v).success, message);
}

/** Field → first message, for showing beside each field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form');
    out[key] ??= issue.message;
  }
  return out;
}
