import 'server-only';
import { type FoldedUnit, foldTerm, foldUnits } from '@/lib/japanese-text';
import { splitQuery } from '@/server/services/cms/search/tokenize';
import type { ReadingPair } from '@/server/services/cms/search/words';
import { type ReadingLookup, readingLookup, readingMatches } from './reading-match';

/**
 * Highlighted snippets of plain text for search results. Matching is done on the same folding
 * as the index (src/lib/japanese-text.ts: NFKC, lower case, hiragana as katakana, long vowel
 * marks, collapsed spaces), so ＤＥＳＩＧＮ is found by `design`, ｸﾞﾘｯﾄﾞ by グリッド and
 * タイポグラフィ by たいぽぐらふぃ, while the text shown is the text as written: each folded
 * character remembers the unit it came from, and a match marks those units. The result is a
 * list of segments the page renders as text and <mark>, never as HTML. Given the item's reading
 * pairs, a kana term also marks the kanji it read (漆 for うるし, reading-match.ts).
 *
 * Positions are counted in characters as a reader sees them: a character and the marks that
 * combine with it (が written as か + ゙, ｶﾞ, an emoji with its variation selector or ZWJ
 * sequence) are one unit, never split by the window or a highlight.
 */

export type Segment = { text: string; match: boolean };

/** About how long a snippet is, in characters. */
export const SNIPPET_LENGTH = 120;
const ELLIPSIS = '…';

/** A unit of the text as written, what it folds to, and whether it is a long vowel mark. */
type Unit = FoldedUnit;

const SENTENCE_END = /^[。．！？!?.]$/u;
const PHRASE_END = /^[、，,：:；;）」』】]$/u;
const SPACE = /^\s+$/u;

/** The distinct, folded terms of a query as the content service reads `q` (foldTerm). */
export function queryTerms(q: string): string[] {
  const terms = splitQuery(q)
    .map(foldTerm)
    .filter((term) => term !== '');
  return [...new Set(terms)];
}

/**
 * Where the terms occur, as written or (kana terms) by the reading of kanji, as sorted, merged
 * [start, end) ranges of unit indexes.
 */
function matchRanges(units: Unit[], terms: string[], readings: ReadingLookup): [number, number][] {
  if (terms.length === 0 || units.length === 0) return [];
  let normalized = '';
  const owner: number[] = [];
  units.forEach((unit, index) => {
    normalized += unit.folded;
    for (let k = 0; k < unit.folded.length; k++) owner.push(index);
  });
  const ranges: [number, number][] = [];
  const mark = (at: number, endAt: number) => {
    let end = owner[endAt - 1]! + 1;
    // デザイナ finds デザイナー: the word is marked as written, up to its long vowel mark.
    while (end < units.length && units[end]!.longVowel) end++;
    ranges.push([owner[at]!, end]);
  };
  for (const term of terms) {
    for (let at = normalized.indexOf(term); at >= 0; at = normalized.indexOf(term, at + 1))
      mark(at, at + term.length);
    for (const [at, end] of readingMatches(normalized, term, readings)) mark(at, end);
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([range[0], range[1]]);
  }
  return merged;
}

function toSegments(
  units: Unit[],
  ranges: [number, number][],
  start: number,
  end: number,
): Segment[] {
  const segments: Segment[] = [];
  const push = (text: string, match: boolean) => {
    if (text === '') return;
    const last = segments.at(-1);
    if (last && last.match === match) last.text += text;
    else segments.push({ text, match });
  };
  let r = 0;
  for (let i = start; i < end; i++) {
    while (r < ranges.length && ranges[r]![1] <= i) r++;
    const range = ranges[r];
    push(units[i]!.text, range !== undefined && range[0] <= i);
  }
  return segments;
}

/**
 * Moves a cut start forward to where a reader can pick up the text: just after the earliest
 * sentence end before `limit`, or else the earliest phrase end or space; otherwise it stays.
 */
function cleanStart(units: Unit[], start: number, first: number, limit: number): number {
  const isBoundary = (i: number, pattern: RegExp) =>
    pattern.test(units[i]!.text) || SPACE.test(units[i]!.text);
  if (start <= first || isBoundary(start - 1, SENTENCE_END)) return skipSpaces(units, start);
  for (const pattern of [SENTENCE_END, PHRASE_END]) {
    for (let i = start; i < limit; i++) {
      if (isBoundary(i, pattern)) return skipSpaces(units, i + 1);
    }
  }
  return start;
}

function skipSpaces(units: Unit[], start: number): number {
  let i = start;
  while (i < units.length && SPACE.test(units[i]!.text)) i++;
  return i;
}

/** The whole text with every term highlighted (for titles); `readings`: the item's (search/words.ts). */
export function highlight(
  text: string,
  terms: readonly string[],
  readings: readonly ReadingPair[] = [],
): Segment[] {
  const units = foldUnits(text);
  return toSegments(
    units,
    matchRanges(units, [...terms], readingLookup(readings)),
    0,
    units.length,
  );
}

/**
 * About `length` characters of the text centred on the first match of any term, every match in
 * it highlighted, with … where text was left out. Starts at the beginning when nothing
 * matches; the whole text when it is short enough.
 */
export function snippet(
  text: string,
  terms: readonly string[],
  options: { length?: number; readings?: readonly ReadingPair[] } = {},
): Segment[] {
  const { length = SNIPPET_LENGTH, readings = [] } = options;
  const units = foldUnits(text);
  let first = 0;
  let last = units.length;
  // Spaces at either end are not worth a character of the window.
  while (first < last && SPACE.test(units[first]!.text)) first++;
  while (last > first && SPACE.test(units[last - 1]!.text)) last--;
  if (first === last) return [];
  const ranges = matchRanges(units, [...terms], readingLookup(readings));

  const firstMatch = ranges.find((range) => range[0] >= first);
  // As much context before the match as after it.
  let start = firstMatch
    ? Math.max(
        first,
        firstMatch[0] - Math.floor(Math.max(0, length - (firstMatch[1] - firstMatch[0])) / 2),
      )
    : first;
  // Near the end of the text, use the room left for more of what comes before.
  if (start + length > last) start = Math.max(first, last - length);
  start = cleanStart(units, start, first, firstMatch?.[0] ?? start);
  let end = Math.min(last, start + length);
  // Never end inside a match: a word cut to its first letters would be marked as found.
  const cut = ranges.find(([from, to]) => from < end && end < to);
  if (cut) end = cut[0] > start ? cut[0] : Math.min(last, cut[1]);
  while (end > start && SPACE.test(units[end - 1]!.text)) end--;

  const segments = toSegments(units, ranges, start, end);
  if (start > first) segments.unshift({ text: ELLIPSIS, match: false });
  if (end < last) segments.push({ text: ELLIPSIS, match: false });
  // Join the ellipses to neighbouring plain text.
  return segments.reduce<Segment[]>((out, segment) => {
    const previous = out.at(-1);
    if (previous && previous.match === segment.match) previous.text += segment.text;
    else out.push({ ...segment });
    return out;
  }, []);
}

/** The plain text of segments (for tests and accessible names). */
export function segmentsText(segments: readonly Segment[]): string {
  return segments.map((segment) => segment.text).join('');
}
