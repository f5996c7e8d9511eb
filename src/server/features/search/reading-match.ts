import 'server-only';
import type { ReadingPair } from '@/server/services/cms/search/words';

/**
 * Where a kana term matches the reading of a text, so that the kanji it found are marked
 * (docs/decisions/042-search-by-reading.md). The index matched the term against the reading the
 * analyser gave the item; the page has no analyser, only the item's reading pairs stored with it
 * (漆 → ウルシ, 紙 → カミ, search/words.ts). The text is read back from them: a stored surface
 * reads as stored (every reading it had in the item, 上 → ウエ and カミ), each kana character is
 * its own reading, anything else breaks the reading as it did in the index. A term is found
 * where it spells a path through those readings, starting or ending inside a word's reading as
 * the index's substring match allows; the words it touches are marked whole.
 *
 * Works on the folded text (src/lib/japanese-text.ts), as the highlighting does, and answers
 * [start, end) positions in it.
 */

const KANA_TERM = /^[\p{sc=Katakana}\u30fc]+$/u;
const KANA = /^[\p{sc=Katakana}\u30fc]$/u;

type Edge = { length: number; reading: string };
/** The stored readings: by the first character of a surface, each surface with its readings. */
export type ReadingLookup = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

const firstChar = (text: string, at = 0) => String.fromCodePoint(text.codePointAt(at)!);

export function readingLookup(pairs: readonly ReadingPair[]): ReadingLookup {
  const lookup = new Map<string, Map<string, string[]>>();
  for (const [surface, reading] of pairs) {
    if (surface === '' || reading === '') continue;
    const key = firstChar(surface);
    const surfaces = lookup.get(key) ?? new Map<string, string[]>();
    lookup.set(key, surfaces);
    surfaces.set(surface, [...(surfaces.get(surface) ?? []), reading]);
  }
  return lookup;
}

/**
 * The text cut into words as the analyser may have cut it, by where each starts: at each place
 * the longest stored surface (with each of its readings), else a kana character; nothing starts
 * inside a word, so 漆器 (read シッキ) is not read 漆 + 器 because 漆 alone reads ウルシ elsewhere.
 */
function segment(folded: string, lookup: ReadingLookup): Map<number, Edge[]> {
  const words = new Map<number, Edge[]>();
  for (let at = 0; at < folded.length;) {
    let longest: { length: number; readings: readonly string[] } | null = null;
    for (const [surface, readings] of lookup.get(firstChar(folded, at)) ?? [])
      if (surface.length > (longest?.length ?? 0) && folded.startsWith(surface, at))
        longest = { length: surface.length, readings };
    if (longest) {
      const { length } = longest;
      words.set(
        at,
        longest.readings.map((reading) => ({ length, reading })),
      );
      at += length;
      continue;
    }
    if (KANA.test(folded[at]!)) words.set(at, [{ length: 1, reading: folded[at]! }]);
    at += folded.codePointAt(at)! > 0xffff ? 2 : 1;
  }
  return words;
}

export function readingMatches(
  folded: string,
  term: string,
  lookup: ReadingLookup,
): [number, number][] {
  // Readings are kana: a term with anything else cannot match there (as in the index).
  if (lookup.size === 0 || !KANA_TERM.test(term)) return [];
  const words = segment(folded, lookup);
  const edges = (at: number): readonly Edge[] => words.get(at) ?? [];
  // Where the rest of the term (from `from`) ends when it starts at a word at `at`; -1 if nowhere.
  const memo = new Map<number, number>();
  const rest = (at: number, from: number): number => {
    const key = at * (term.length + 1) + from;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let end = -1;
    for (const edge of edges(at)) {
      if (edge.reading.length >= term.length - from) {
        if (edge.reading.startsWith(term.slice(from))) end = at + edge.length;
      } else if (term.startsWith(edge.reading, from)) {
        end = rest(at + edge.length, from + edge.reading.length);
      }
      if (end >= 0) break;
    }
    memo.set(key, end);
    return end;
  };
  const matches: [number, number][] = [];
  for (const at of words.keys()) {
    let end = -1;
    for (const edge of edges(at)) {
      // The term may begin anywhere in the word's reading.
      for (let offset = 0; offset < edge.reading.length && end < 0; offset++) {
        const tail = edge.reading.slice(offset);
        if (tail.length >= term.length) {
          if (tail.startsWith(term)) end = at + edge.length;
        } else if (term.startsWith(tail)) {
          end = rest(at + edge.length, tail.length);
        }
      }
      if (end >= 0) break;
    }
    if (end >= 0) matches.push([at, end]);
  }
  return matches;
}
