import 'server-only';
import { z } from '@/lib/zod';
import { formatNumber } from '@/lib/format';

/**
 * Text fields of the public forms (contact, inquiries), each with its Japanese messages named
 * after the field's label: 「お名前を入力してください。」, 「お名前は 100 文字以内にしてください。」.
 */

// Control characters other than tab and line feed: invisible, and PostgreSQL refuses NUL.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/g;

const entered = (label: string) => `${label}を入力してください。`;
const tooLong = (label: string, max: number) =>
  `${label}は ${formatNumber(max)} 文字以内にしてください。`;

/** One required line: trimmed, no control characters (line breaks included). */
export function requiredLine(label: string, max: number) {
  return z
    .string({ error: entered(label) })
    .trim()
    .min(1, entered(label))
    .max(max, tooLong(label, max))
    .refine((value) => !/[\p{Cc}]/u.test(value), {
      error: `${label}に使えない文字が含まれています。`,
    });
}

/** Text as a textarea posts it: CRLF as one line break, other control characters dropped. */
const textareaText = (label: string) =>
  z
    .string({ error: entered(label) })
    .transform((value) => value.replace(/\r\n?/g, '\n').replace(CONTROL, '').trim());

/**
 * A required multi-line text. Browsers send a textarea's line breaks as CRLF while its maxlength
 * counts them as one character: normalised first, so what fitted in the form fits here.
 */
export function multiLineText(label: string, max: number) {
  return textareaText(label).pipe(z.string().min(1, entered(label)).max(max, tooLong(label, max)));
}

/** A multi-line text that may be left empty (null then). */
export function optionalMultiLineText(label: string, max: number) {
  return textareaText(label)
    .nullish()
    .transform((value) => value || null)
    .pipe(z.string().max(max, tooLong(label, max)).nullable());
}
