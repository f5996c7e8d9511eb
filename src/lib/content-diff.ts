/**
 * What changed in an item between two of its versions, field by field, for the version
 * history screen. Pure (no DOM, no server): text is compared line by line and rich text
 * sentence by sentence on its plain text, so an editor reads the change as prose rather
 * than as markup; references and media are compared by id and URL.
 */

import type { EndpointDef, FieldDef } from '@/lib/cms/model';
import { formatDateTime } from './format';
import { type Attributes, htmlToText } from './text/html-to-text';

export type DiffOp = 'same' | 'ins' | 'del';
/** One line (text) or sentence (rich text) of a text diff. */
export type DiffPart = {
  op: DiffOp;
  text: string;
  /** starts a new paragraph */ breakBefore?: boolean;
};

export type FieldDiff =
  | { id: string; label: string; type: 'text'; parts: DiffPart[] }
  | { id: string; label: string; type: 'value'; before: string; after: string };

type Data = Record<string, unknown> | null | undefined;

/** The fields that differ between two working copies, in the model's order. */
export function diffFields(def: EndpointDef, from: Data, to: Data): FieldDiff[] {
  const diffs: FieldDiff[] = [];
  for (const field of def.fields) {
    const before = from?.[field.id];
    const after = to?.[field.id];
    if (isTextKind(field)) {
      const a = textUnits(field, before);
      const b = textUnits(field, after);
      if (sameUnits(a, b)) continue;
      diffs.push({ id: field.id, label: field.label, type: 'text', parts: diffUnits(a, b) });
    } else {
      const a = comparable(field, before);
      const b = comparable(field, after);
      if (a === b) continue;
      diffs.push({
        id: field.id,
        label: field.label,
        type: 'value',
        before: displayValue(field, before),
        after: displayValue(field, after),
      });
    }
  }
  return diffs;
}

const isTextKind = (field: FieldDef) =>
  field.kind === 'text' || field.kind === 'textArea' || field.kind === 'richEditor';

/** A unit of text to compare, and whether it opens a paragraph. */
type Unit = { text: string; breakBefore: boolean };

function textUnits(field: FieldDef, value: unknown): Unit[] {
  if (typeof value !== 'string' || value === '') return [];
  if (field.kind !== 'richEditor') {
    return value.split(/\r?\n/).map((text, i) => ({ text, breakBefore: i > 0 }));
  }
  const units: Unit[] = [];
  for (const paragraph of htmlToPlainText(value).split(/\n+/)) {
    sentences(paragraph).forEach((text, i) => units.push({ text, breakBefore: i === 0 }));
  }
  if (units[0]) units[0].breakBefore = false;
  return units;
}

const sameUnits = (a: Unit[], b: Unit[]) =>
  a.length === b.length && a.every((unit, i) => unit.text === b[i]?.text);

/** A Japanese or latin paragraph cut after each sentence's final punctuation. */
export function sentences(paragraph: string): string[] {
  const text = paragraph.trim();
  if (!text) return [];
  const found = text.match(/[^。．！？!?]*(?:[。．！？!?]+[」』）)]*|$)/g) ?? [];
  return found.map((s) => s.trim()).filter(Boolean);
}

// Where a paragraph, heading, list item or table row starts or ends, a new line starts.
const LINE_TAGS: ReadonlySet<string> = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'ul',
  'ol',
  'blockquote',
  'figure',
  'figcaption',
  'pre',
  'table',
  'thead',
  'tbody',
  'tr',
  'div',
  'br',
]);

function edge(name: string, attribs: Attributes, end: 'open' | 'close'): string {
  if (LINE_TAGS.has(name)) return name === 'br' && end === 'close' ? '' : '\n';
  if (end === 'close') return name === 'td' || name === 'th' ? ' ' : '';
  if (name === 'hr') {
    return Object.hasOwn(attribs, 'data-members-divider')
      ? '\n［会員限定部分の区切り］\n'
      : '\n［区切り線］\n';
  }
  if (name === 'img') return attribs.alt ? `［画像: ${attribs.alt}］` : '［画像］';
  if (name === 'iframe') return `\n［埋め込み: ${attribs.src ?? ''}］\n`;
  return '';
}

/**
 * Stored rich text (already sanitised) as plain text with one paragraph per line. Images,
 * embeds and the members' divider become bracketed words, so adding one shows as a change.
 */
export function htmlToPlainText(html: string): string {
  return htmlToText(html, { edge })
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** A longest-common-subsequence diff of two unit lists (the texts are at most a few thousand). */
function diffUnits(a: Unit[], b: Unit[]): DiffPart[] {
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: the common length of a[i..] and b[j..].
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = lcs[i]!;
    const below = lcs[i + 1]!;
    for (let j = m - 1; j >= 0; j--) {
      row[j] = a[i]!.text === b[j]!.text ? below[j + 1]! + 1 : Math.max(below[j]!, row[j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  const push = (op: DiffOp, unit: Unit) =>
    parts.push(
      unit.breakBefore ? { op, text: unit.text, breakBefore: true } : { op, text: unit.text },
    );
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i]!.text === b[j]!.text) {
      push('same', b[j]!);
      i++;
      j++;
    } else if (j < m && (i === n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) {
      push('ins', b[j++]!);
    } else {
      push('del', a[i++]!);
    }
  }
  // Deletions read before the insertions that replace them.
  return reorderReplacements(parts);
}

function reorderReplacements(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let k = 0;
  while (k < parts.length) {
    if (parts[k]!.op === 'same') {
      out.push(parts[k++]!);
      continue;
    }
    const run: DiffPart[] = [];
    while (k < parts.length && parts[k]!.op !== 'same') run.push(parts[k++]!);
    out.push(...run.filter((p) => p.op === 'del'), ...run.filter((p) => p.op === 'ins'));
  }
  return out;
}

function refId(value: unknown): string | null {
  if (typeof value === 'string') return value || null;
  if (value && typeof value === 'object' && 'id' in value && typeof value.id === 'string')
    return value.id;
  return null;
}

function asList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === null || value === undefined || value === '' ? [] : [value];
}

function url(value: unknown): { url: string; alt: string } | null {
  if (typeof value === 'string') return value ? { url: value, alt: '' } : null;
  if (value && typeof value === 'object' && 'url' in value && typeof value.url === 'string') {
    const alt = 'alt' in value && typeof value.alt === 'string' ? value.alt : '';
    return { url: value.url, alt };
  }
  return null;
}

/** A key equal for two values exactly when an editor would call them the same. */
function comparable(field: FieldDef, value: unknown): string {
  switch (field.kind) {
    case 'relation':
      return refId(value) ?? '';
    case 'relationList':
      return JSON.stringify(asList(value).map(refId));
    case 'select':
      return JSON.stringify(asList(value));
    case 'media':
    case 'file': {
      const u = url(value);
      // Width and height follow from the file; the alt text is the editor's.
      return u ? JSON.stringify([u.url, field.kind === 'media' ? u.alt : '']) : '';
    }
    case 'date':
      return typeof value === 'string' && value ? String(Date.parse(value)) : '';
    default:
      return value === null || value === undefined ? '' : JSON.stringify(value);
  }
}

const NONE = '（なし）';

/** A value as the history screen prints it. */
function displayValue(field: FieldDef, value: unknown): string {
  switch (field.kind) {
    case 'boolean':
      return value === true ? 'はい' : value === false ? 'いいえ' : NONE;
    case 'number':
      return typeof value === 'number' ? value.toLocaleString('ja-JP') : NONE;
    case 'date':
      return typeof value === 'string' && value ? formatDateTime(value) || value : NONE;
    case 'select': {
      const list = asList(value).filter((v): v is string => typeof v === 'string');
      return list.length ? list.join('、') : NONE;
    }
    case 'relation':
      return refId(value) ?? NONE;
    case 'relationList': {
      const ids = asList(value).map(refId).filter(Boolean);
      return ids.length ? ids.join('、') : NONE;
    }
    case 'media':
    case 'file': {
      const u = url(value);
      if (!u) return NONE;
      return u.alt ? `${u.url}（代替テキスト: ${u.alt}）` : u.url;
    }
    default:
      if (typeof value === 'string') return value || NONE;
      return value === null || value === undefined ? NONE : JSON.stringify(value);
  }
}
