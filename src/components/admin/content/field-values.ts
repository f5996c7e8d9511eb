/**
 * The editor's values, field by field: how a stored value shows in its control, what an
 * emptied control sends (the content API clears a field on '' / [] / null), and the date
 * conversions between a `datetime-local` typed in Japan time and the ISO strings the API
 * stores. Pure, so both the form and its tests use it.
 */

import type { FileValue, MediaValue } from '@/lib/admin-content';
import type { FieldDef } from '@/lib/cms/model';
import { relationId } from '@/lib/cms/relation-id';
import { JAPAN_OFFSET_MS, japanClock, formatNumber } from '@/lib/format';
import { htmlToText } from '@/lib/text/html-to-text';

/** An ISO date-time → "YYYY-MM-DDTHH:MM" in Japan time (for `datetime-local`); '' if none. */
export function isoToJstInput(iso: string | null | undefined): string {
  if (!iso) return '';
  return japanClock(iso).slice(0, 16);
}

/** "YYYY-MM-DDTHH:MM" typed in Japan time → ISO (UTC); null when not a date-time. */
export function jstInputToIso(value: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [y, mo, d, h, mi, s] = match.slice(1).map((part) => Number(part ?? 0));
  const time = Date.UTC(y!, mo! - 1, d, h, mi, s) - JAPAN_OFFSET_MS;
  const back = new Date(time + JAPAN_OFFSET_MS);
  // Date.UTC rolls 2月30日 over into March: such a day does not exist.
  if (back.getUTCMonth() !== mo! - 1 || back.getUTCDate() !== d || h! > 23 || mi! > 59) return null;
  return new Date(time).toISOString();
}

/** The value a field sends when its control is empty. */
export function emptyValue(field: FieldDef): unknown {
  switch (field.kind) {
    case 'select':
    case 'relationList':
      return [];
    case 'number':
    case 'relation':
    case 'media':
    case 'file':
    case 'custom':
      return null;
    case 'boolean':
      return false;
    default:
      return '';
  }
}

/**
 * Every field of the form with a value in the write shape: the item's own, or the empty one,
 * so each save sends the whole form and an emptied field is cleared.
 */
export function initialValues(
  fields: readonly FieldDef[],
  stored: Record<string, unknown>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) values[field.id] = normalize(field, stored[field.id]);
  return values;
}

function normalize(field: FieldDef, value: unknown): unknown {
  if (value === undefined || value === null) return emptyValue(field);
  switch (field.kind) {
    case 'select':
      return Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    case 'relation':
      return relationId(value);
    case 'relationList':
      return Array.isArray(value) ? value.map(relationId).filter(Boolean) : [];
    default:
      return value;
  }
}

export const asString = (value: unknown): string => (typeof value === 'string' ? value : '');
export const asStrings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
export const asMedia = (value: unknown): MediaValue | FileValue | null =>
  value && typeof value === 'object' && 'url' in value && typeof value.url === 'string'
    ? (value as MediaValue | FileValue)
    : null;

/** Characters as the server counts them (code points: an emoji is one). */
export const charCount = (text: string): number => Array.from(text).length;

/** The media library kind a media or file field picks from. */
export function mediaKindOf(field: FieldDef): 'image' | 'audio' | 'video' {
  if (field.kind === 'media') return 'image';
  if (/video/i.test(field.id)) return 'video';
  return 'audio';
}

/**
 * What the form can tell before asking the server: required fields, lengths, ranges, URL
 * prefixes. The server checks again and its answer wins; this only saves a round trip.
 */
export function clientFieldErrors(
  fields: readonly FieldDef[],
  values: Record<string, unknown>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of fields) {
    const value = values[field.id];
    const problem = fieldProblem(field, value);
    if (problem) errors[field.id] = problem;
  }
  return errors;
}

function fieldProblem(field: FieldDef, value: unknown): string | null {
  // The content service refuses a draft without its required fields too.
  if (field.required && isEmpty(field, value)) return `${field.label}を入力してください。`;
  if (typeof value === 'string') {
    if (field.maxLength !== undefined && charCount(value) > field.maxLength)
      return `${formatNumber(field.maxLength)}文字以内で入力してください（現在 ${formatNumber(charCount(value))}文字）。`;
    if (field.urlPrefixes && value !== '' && !field.urlPrefixes.some((p) => value.startsWith(p)))
      return `${field.urlPrefixes.join(' または ')} で始まる URL を入力してください。`;
  }
  if (typeof value === 'number') {
    if (
      (field.min !== undefined && value < field.min) ||
      (field.max !== undefined && value > field.max)
    )
      return `${rangeText(field)}の数値を入力してください。`;
  }
  return null;
}

export function isEmpty(field: FieldDef, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (Array.isArray(value)) return value.length === 0;
  return field.kind === 'richEditor' ? richTextIsEmpty(value) : value === '';
}

/** Rich text with no words or pictures ("<p></p>" from an emptied editor) is empty. */
function richTextIsEmpty(value: unknown): boolean {
  if (typeof value !== 'string') return true;
  if (/<(img|iframe|hr)\b/i.test(value)) return false;
  return htmlToText(value, { whitespace: 'collapse' }) === '';
}

/** "0〜10,000" for a number field's hint and error. */
export function rangeText(field: FieldDef): string {
  const f = formatNumber;
  if (field.min !== undefined && field.max !== undefined) return `${f(field.min)}〜${f(field.max)}`;
  if (field.min !== undefined) return `${f(field.min)}以上`;
  if (field.max !== undefined) return `${f(field.max)}以下`;
  return '';
}
