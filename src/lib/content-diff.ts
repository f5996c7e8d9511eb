/**
 * What changed in an item between two of its versions, field by field, for the version
 * history screen. Pure (no DOM, no server). Text is compared character by character
 * (Japanese has no spaces to cut words at; a character here is what a reader sees as one,
 * so emoji and combined marks are never split), then cleaned up so a rewritten phrase reads
 * as one replacement rather than scattered letters. Rich text is compared on its plain text
 * with each character's formatting alongside: equal text whose link, mark or block kind
 * changed is reported as a format change, so a fixed link shows. References and media are
 * compared by id and URL.
 */

import DiffMatchPatch from 'diff-match-patch';
import type { EndpointDef, FieldDef } from '@/lib/cms/model';
import { relationId } from '@/lib/cms/relation-id';
import { formatDateTime, formatNumber } from './format';
import { type Attributes, walkHtml } from './text/html-to-text';

export type DiffOp = 'same' | 'ins' | 'del' | 'format';
/**
 * One stretch of a text diff. Its text may hold new lines (paragraph breaks). Added or removed
 * rich text names its formatting (`marks`); a format change names it before and after.
 */
export type DiffPart =
  | { op: 'same'; text: string }
  | { op: 'ins' | 'del'; text: string; marks?: readonly string[] }
  | { op: 'format'; text: string; before: readonly string[]; after: readonly string[] };

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
      const parts = diffText(textChars(field, before), textChars(field, after));
      if (parts.every((part) => part.op === 'same')) continue;
      diffs.push({ id: field.id, label: field.label, type: 'text', parts });
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

/** The formatting of a character, outermost first, in words; `key` compares two of them. */
type Marks = { labels: readonly string[]; key: string };
const NO_MARKS: Marks = { labels: [], key: '' };
/** One character as a reader sees it (a grapheme cluster) and its formatting. */
type Char = { text: string; marks: Marks };

function textChars(field: FieldDef, value: unknown): Char[] {
  if (typeof value !== 'string' || value === '') return [];
  if (field.kind === 'richEditor') return richChars(value);
  const text = value.replace(/\r\n?/g, '\n');
  return graphemes(text).map((g) => ({ text: g, marks: NO_MARKS }));
}

const segmenter = new Intl.Segmenter('ja', { granularity: 'grapheme' });
// What can join code units into one character: surrogates, combining and variation marks,
// joiners, Hangul jamo, a few prepended and spacing signs. Text without any (most Japanese
// prose) is cut per code unit, many times faster than the segmenter.
const SURROGATE = /[\uD800-\uDFFF]/;
const JOINING =
  /\u200C|\u200D|[\p{M}\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\u0600-\u0605\u06DD\u070F\u0890\u0891\u08E2\u0D4E\u0E33\u0EB3\r]/u;

/** The text's characters as a reader sees them, each with its offset in code units. */
function graphemeSpans(text: string): { segment: string; index: number }[] {
  if (SURROGATE.test(text) || JOINING.test(text)) return Array.from(segmenter.segment(text));
  return Array.from(text, (segment, index) => ({ segment, index }));
}
const graphemes = (text: string) => graphemeSpans(text).map((s) => s.segment);

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

/** The words for what an element does to the text inside it ('' for nothing worth saying). */
function markLabel(name: string, attribs: Attributes, parent: string | undefined): string {
  switch (name) {
    case 'strong':
    case 'b':
      return '太字';
    case 'em':
    case 'i':
      return '斜体';
    case 'u':
      return '下線';
    case 's':
    case 'del':
    case 'strike':
      return '取り消し線';
    case 'code':
      return parent === 'pre' ? '' : 'コード';
    case 'pre':
      return 'コードブロック';
    case 'a':
      return `リンク: ${attribs.href ?? ''}`;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
      return `見出し${name.slice(1)}`;
    case 'blockquote':
      return '引用';
    case 'li':
      return parent === 'ol' ? '番号付きリスト' : '箇条書き';
    case 'figcaption':
      return 'キャプション';
    case 'th':
      return '表の見出しセル';
    default:
      return '';
  }
}

/** What stands for an element that has no text of its own. */
function placeholder(name: string, attribs: Attributes): { text: string; label?: string } | null {
  if (name === 'hr') {
    return {
      text: Object.hasOwn(attribs, 'data-members-divider')
        ? '\n［会員限定部分の区切り］\n'
        : '\n［区切り線］\n',
    };
  }
  if (name === 'img') {
    const text = attribs.alt ? `［画像: ${attribs.alt}］` : '［画像］';
    // The address rides as formatting: the same alt text on another file is a change.
    return { text, label: `画像: ${attribs.src ?? ''}` };
  }
  if (name === 'iframe') return { text: `\n［埋め込み: ${attribs.src ?? ''}］\n` };
  return null;
}

/**
 * Stored rich text (already sanitised) as characters with their formatting, one paragraph per
 * line: white space collapsed and trimmed as a browser shows it, empty lines dropped.
 */
function richChars(html: string): Char[] {
  // Code units of the raw text, each with the formatting it was written in.
  let raw = '';
  const rawMarks: Marks[] = [];
  const stack: { name: string; label: string }[] = [];
  let marks = NO_MARKS;
  const remark = () => {
    const labels = [...new Set(stack.map((s) => s.label).filter(Boolean))];
    marks = { labels, key: labels.join('\u0000') };
  };
  const push = (text: string, with_: Marks) => {
    raw += text;
    for (let k = 0; k < text.length; k++) rawMarks.push(text[k] === '\n' ? NO_MARKS : with_);
  };
  walkHtml(html, {
    open(name, attribs) {
      stack.push({ name, label: markLabel(name, attribs, stack.at(-1)?.name) });
      remark();
      if (LINE_TAGS.has(name) && name !== 'br') push('\n', NO_MARKS);
      const stand = placeholder(name, attribs);
      if (stand) {
        const labels = stand.label ? [...marks.labels, stand.label] : marks.labels;
        push(stand.text, { labels, key: labels.join('\u0000') });
      }
    },
    text(text) {
      push(text, marks);
    },
    close(name) {
      stack.pop();
      remark();
      if (LINE_TAGS.has(name)) push('\n', NO_MARKS);
      else if (name === 'td' || name === 'th') push(' ', marks);
    },
  });

  const chars: Char[] = [];
  let start = 0;
  for (const line of raw.split('\n')) {
    const lineMarks = rawMarks.slice(start, start + line.length);
    start += line.length + 1;
    // Collapse white space, keeping the formatting of each run's first character.
    let text = '';
    const kept: Marks[] = [];
    for (let k = 0; k < line.length; k++) {
      const space = /[ \t\r\f\u00a0]/.test(line[k]!);
      if (space && (text === '' || text.endsWith(' '))) continue;
      text += space ? ' ' : line[k];
      kept.push(lineMarks[k]!);
    }
    if (text.endsWith(' ')) {
      text = text.slice(0, -1);
      kept.pop();
    }
    if (!text) continue;
    if (chars.length) chars.push({ text: '\n', marks: NO_MARKS });
    for (const { segment, index } of graphemeSpans(text))
      chars.push({ text: segment, marks: kept[index]! });
  }
  return chars;
}

/**
 * Stored rich text (already sanitised) as plain text with one paragraph per line. Images,
 * embeds and the members' divider become bracketed words, so adding one shows as a change.
 */
export function htmlToPlainText(html: string): string {
  return richChars(html)
    .map((c) => c.text)
    .join('');
}

const PRIVATE_USE = { first: 0xe000, last: 0xf8ff };

/**
 * Each character as one UTF-16 code unit, so the diff (which works on code units) never cuts
 * a character in two: single units stand for themselves, others get a private-use code.
 * Beyond 6,400 distinct such characters in one pair of texts, the rest share the last code
 * (a change among them then shows as the surrounding text's change only).
 */
function encode(a: Char[], b: Char[]): [string, string] {
  const codes = new Map<string, string>();
  let next = PRIVATE_USE.first;
  const code = (text: string) => {
    const unit = text.charCodeAt(0);
    const single =
      text.length === 1 &&
      !(unit >= 0xd800 && unit <= 0xdfff) &&
      !(unit >= PRIVATE_USE.first && unit <= PRIVATE_USE.last);
    if (single) return text;
    let found = codes.get(text);
    if (found === undefined) {
      found = String.fromCharCode(Math.min(next++, PRIVATE_USE.last));
      codes.set(text, found);
    }
    return found;
  };
  return [a.map((c) => code(c.text)).join(''), b.map((c) => code(c.text)).join('')];
}

// module-state: settings only; a diff keeps nothing between calls.
const dmp = new DiffMatchPatch();
// A bound on a pathological pair: past it the diff is coarser, never wrong.
dmp.Diff_Timeout = 2;

/**
 * Two character lists as stretches of same, removed, added and reformatted text. Lines
 * (paragraphs) are aligned first, so an unchanged paragraph always reads as unchanged; then
 * each run of changed lines is compared character by character.
 */
function diffText(a: Char[], b: Char[]): DiffPart[] {
  // Every line ends in a new line (the last one's is taken off at the end).
  const la = lines(a);
  const lb = lines(b);
  const ids = new Map<string, string>();
  const lineCodes = (list: Char[][]) =>
    list
      .map((line) => {
        const id = line.map((c) => `${c.text}\u0001${c.marks.key}`).join('\u0002');
        let code = ids.get(id);
        if (code === undefined) ids.set(id, (code = String.fromCharCode(ids.size + 1)));
        return code;
      })
      .join('');
  const byLine = dmp.diff_main(lineCodes(la), lineCodes(lb), false);

  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  let runA: Char[] = [];
  let runB: Char[] = [];
  const flush = () => {
    if (runA.length || runB.length) diffChars(runA, runB, parts);
    runA = [];
    runB = [];
  };
  for (const [op, codes] of byLine) {
    for (let k = 0; k < codes.length; k++) {
      if (op === DiffMatchPatch.DIFF_EQUAL) {
        flush();
        j++;
        for (const c of la[i++]!) addPart(parts, { op: 'same', text: c.text });
      } else if (op === DiffMatchPatch.DIFF_DELETE) runA.push(...la[i++]!);
      else runB.push(...lb[j++]!);
    }
  }
  flush();
  const last = parts.at(-1);
  if (last) {
    last.text = last.text.replace(/\n$/, '');
    if (!last.text) parts.pop();
  }
  return parts;
}

const NEW_LINE: Char = { text: '\n', marks: NO_MARKS };

function lines(chars: Char[]): Char[][] {
  if (!chars.length) return [];
  const out: Char[][] = [[]];
  for (const c of chars) {
    out.at(-1)!.push(c);
    if (c.text === '\n') out.push([]);
  }
  out.at(-1)!.push(NEW_LINE);
  return out;
}

/** A character diff of one run of changed lines, appended to `parts`. */
function diffChars(a: Char[], b: Char[], parts: DiffPart[]): void {
  const [ea, eb] = encode(a, b);
  const diffs = dmp.diff_main(ea, eb, false);
  // Small equalities between edits go, so a rewritten phrase reads as one replacement.
  dmp.diff_cleanupSemantic(diffs);
  let i = 0;
  let j = 0;
  for (const [op, text] of diffs) {
    for (let k = 0; k < text.length; k++) {
      if (op === DiffMatchPatch.DIFF_EQUAL) {
        const x = a[i++]!;
        const y = b[j++]!;
        addPart(
          parts,
          x.marks.key === y.marks.key
            ? { op: 'same', text: y.text }
            : { op: 'format', text: y.text, before: x.marks.labels, after: y.marks.labels },
        );
      } else {
        const c = op === DiffMatchPatch.DIFF_DELETE ? a[i++]! : b[j++]!;
        const kind = op === DiffMatchPatch.DIFF_DELETE ? 'del' : 'ins';
        addPart(
          parts,
          c.marks.labels.length
            ? { op: kind, text: c.text, marks: c.marks.labels }
            : { op: kind, text: c.text },
        );
      }
    }
  }
}

/** Appends a part, joining it to the last one when they say the same. */
function addPart(parts: DiffPart[], part: DiffPart): void {
  const last = parts.at(-1);
  if (last && last.op === part.op && sameMarks(last, part)) last.text += part.text;
  else parts.push(part);
}

const key = (labels: readonly string[] | undefined) => (labels ?? []).join('\u0000');

function sameMarks(x: DiffPart, y: DiffPart): boolean {
  if (x.op === 'format' && y.op === 'format')
    return key(x.before) === key(y.before) && key(x.after) === key(y.after);
  if ((x.op === 'ins' || x.op === 'del') && (y.op === 'ins' || y.op === 'del'))
    return key(x.marks) === key(y.marks);
  return true;
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
      return relationId(value) ?? '';
    case 'relationList':
      return JSON.stringify(asList(value).map(relationId));
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
      return typeof value === 'number' ? formatNumber(value) : NONE;
    case 'date':
      return typeof value === 'string' && value ? formatDateTime(value) || value : NONE;
    case 'select': {
      const list = asList(value).filter((v): v is string => typeof v === 'string');
      return list.length ? list.join('、') : NONE;
    }
    case 'relation':
      return relationId(value) ?? NONE;
    case 'relationList': {
      const ids = asList(value).map(relationId).filter(Boolean);
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
