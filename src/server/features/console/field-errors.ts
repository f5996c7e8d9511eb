import 'server-only';
import { formatNumber } from '@/lib/format';
import type { EndpointDef, FieldDef } from '@/lib/cms/model';
import { CmsApiError } from '@/server/services/cms/errors';
import { forbiddenField, validateWrite } from '@/server/services/cms/values';

/**
 * The editor's field messages. The content API's rules (values.ts) stay the one judge: each
 * field is put through them alone, and what they refuse is said in Japanese beside the field,
 * every field at once instead of the API's first error.
 */

const isEmpty = (field: FieldDef, value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (field.kind === 'relation' &&
    typeof value === 'object' &&
    value !== null &&
    Object.keys(value).length === 0);

function requiredMessage(field: FieldDef): string {
  const choose = ['select', 'relation', 'relationList', 'media', 'file'].includes(field.kind);
  return `${field.label}を${choose ? '選んでください' : '入力してください'}。`;
}

/** The API's English refusal of one field, said in Japanese. */
function japaneseMessage(field: FieldDef, english: string): string {
  // A custom field's refusal names its inner field (`'seo.metaTitle' is too long…`).
  const innerId = field.kind === 'custom' ? /'[^'.]+\.([^'.]+)'/.exec(english)?.[1] : undefined;
  const inner = field.fields?.find((f) => f.id === innerId);
  if (inner) return japaneseMessage(inner, english);
  if (english.includes('too long'))
    return `${field.label}は${formatNumber(field.maxLength ?? 0)}文字以内で入力してください。`;
  if (english.includes('URL starting'))
    return `${field.label}は ${field.urlPrefixes?.join(' または ')} で始まる URL を入力してください。`;
  if (english.includes('an integer') || (field.integer && english.includes('out of range')))
    return `${field.label}は${field.min}から${field.max}までの整数で入力してください。`;
  if (english.includes('out of range'))
    return `${field.label}は${field.min}から${field.max}までの数値で入力してください。`;
  if (english.includes('date format')) return `${field.label}の日時を正しく入力してください。`;
  if (english.includes('not an option') || english.includes('Only one option'))
    return `${field.label}は選択肢から選んでください。`;
  return `${field.label}の値が正しくありません。`;
}

export type FieldCheck =
  { ok: true } | { ok: false; fieldErrors: Record<string, string>; unknownKeys: string[] };

/**
 * Checks a whole working copy as the editor sends it: every field of the endpoint may be
 * present (empty ones clear), and nothing else.
 */
export function checkFields(def: EndpointDef, fields: Record<string, unknown>): FieldCheck {
  const fieldErrors: Record<string, string> = {};
  const unknownKeys = Object.keys(fields).filter((key) => !def.fields.some((f) => f.id === key));
  for (const field of def.fields) {
    const value = fields[field.id];
    if (isEmpty(field, value)) {
      if (field.required) fieldErrors[field.id] = requiredMessage(field);
      continue;
    }
    try {
      const { set } = validateWrite(def, { [field.id]: value }, 'patch');
      // Rich text that sanitises to nothing is empty too.
      if (field.required && (set[field.id] === undefined || set[field.id] === ''))
        fieldErrors[field.id] = requiredMessage(field);
    } catch (error) {
      if (!(error instanceof CmsApiError)) throw error;
      fieldErrors[field.id] = japaneseMessage(field, error.message);
    }
  }
  // A rule across fields: a price is for members' posts, not for one everyone reads in full.
  const forbidden = forbiddenField(def, fields);
  if (forbidden && !fieldErrors[forbidden.id] && !isEmpty(forbidden, fields[forbidden.id]))
    fieldErrors[forbidden.id] =
      `無料公開の記事には${forbidden.label.split(' ')[0]}を設定できません。`;
  return Object.keys(fieldErrors).length === 0 && unknownKeys.length === 0
    ? { ok: true }
    : { ok: false, fieldErrors, unknownKeys };
}
