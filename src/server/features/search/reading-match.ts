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

/** A folded kana character (katakana, its marks, ー; hiragana is folded away): its own reading. */
const isKana = (code: number) =>
  (code >= 0x30a1 && code <= 0x30fa) ||
  (code >= 0x30fc && code <= 0x30fe) ||
  (code >= 0x31f0 && code <= 0x31ff);

type Entry = { surface: string; readings: string[] };
/** The stored readings by the first UTF-16 unit of their surface, longest surface first. */
export type ReadingLookup = ReadonlyMap<number, readonly Entry[]>;

export function readingLookup(pairs: readonly ReadingPair[]): ReadingLookup {
  const lookup = new Map<number, Entry[]>();
  for (const [surface, reading] of pairs) {
    if (surface === '' || reading === '') continue;
    const entries = lookup.get(surface.charCodeAt(0)) ?? [];
    lookup.set(surface.charCodeAt(0), entries);
    const entry = entries.find((e) => e.surface === surface);
    if (entry) entry.readings.push(reading);
    else entries.push({ surface, readings: [reading] });
  }
  for (const entries of lookup.values())
    entries.sort((a, b) => b.surface.length - a.surface.length);
  return lookup;
}

/** Whether a term going through a word could use its reading: they share an end or one holds the other. */
function overlaps(reading: string, term: string): boolean {
  if (reading.includes(term) || term.includes(reading)) return true;
  for (let k = 1; k < Math.min(reading.length, term.length); k++)
    if (reading.endsWith(term.slice(0, k)) || reading.startsWith(term.slice(term.length - k)))
      return true;
  return false;
}

/**
 * The text cut into words as the analyser may have cut it: at each place the longest stored
 * surface (with each of its readings), else a kana character (reading null: itself); nothing
 * starts inside a word, so 漆器 (read シッキ) is not read 漆 + 器 because 漆 reads ウルシ elsewhere.
 * Other characters are in no word: they break the reading.
 */
function segment(folded: string, lookup: ReadingLookup) {
  const starts: number[] = [];
  const ends: number[] = [];
  const readings: (readonly string[] | null)[] = [];
  for (let at = 0; at < folded.length;) {
    const code = folded.charCodeAt(at);
    const entry = lookup.get(code)?.find((e) => folded.startsWith(e.surface, at));
    if (entry) {
      starts.push(at);
      ends.push(at + entry.surface.length);
      readings.push(entry.readings);
      at += entry.surface.length;
    } else {
      if (isKana(code)) {
        starts.push(at);
        ends.push(at + 1);
        readings.push(null);
      }
      at++;
    }
  }
  return { starts, ends, readings };
}

/** Whether `a` from `aFrom` and `b` from `bFrom` agree for `length` units. */
function same(a: string, aFrom: number, b: string, bFrom: number, length: number): boolean {
  for (let k = 0; k < length; k++)
    if (a.charCodeAt(aFrom + k) !== b.charCodeAt(bFrom + k)) return false;
  return true;
}

export function readingMatches(
  folded: string,
  term: string,
  lookup: ReadingLookup,
): [number, number][] {
  // Readings are kana: a term with anything else cannot match there (as in the index). A match
  // that reads no stored word is one of the written form's, already marked: without such a word
  // in the text there is nothing to add.
  if (lookup.size === 0 || !KANA_TERM.test(term)) return [];
  let useful = false;
  for (const entries of lookup.values())
    for (const entry of entries)
      if (entry.readings.some((r) => overlaps(r, term)) && folded.includes(entry.surface))
        useful = true;
  if (!useful) return [];

  const { starts, ends, readings } = segment(folded, lookup);
  const readingsAt = (i: number) => readings[i] ?? [folded[starts[i]!]!];
  const next = (i: number) => (i + 1 < starts.length && starts[i + 1] === ends[i] ? i + 1 : -1);
  // Where the term from `from` ends when it starts at word i; -1 if nowhere.
  const memo = new Map<number, number>();
  const rest = (i: number, from: number): number => {
    if (i < 0) return -1;
    const key = i * (term.length + 1) + from;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let end = -1;
    const left = term.length - from;
    for (const reading of readingsAt(i)) {
      if (reading.length >= left) {
        if (same(reading, 0, term, from, left)) end = ends[i]!;
      } else if (same(reading, 0, term, from, reading.length)) {
        end = rest(next(i), from + reading.length);
      }
      if (end >= 0) break;
    }
    memo.set(key, end);
    return end;
  };
  const matches: [number, number][] = [];
  for (let i = 0; i < starts.length; i++) {
    let end = -1;
    for (const reading of readingsAt(i)) {
      // The term may begin anywhere in the word's reading.
      for (let offset = 0; offset < reading.length && end < 0; offset++) {
        const tail = reading.length - offset;
        if (tail >= term.length) {
          if (same(reading, offset, term, 0, term.length)) end = ends[i]!;
        } else if (same(reading, offset, term, 0, tail)) {
          end = rest(next(i), tail);
        }
      }
      if (end >= 0) break;
    }
    if (end >= 0) matches.push([starts[i]!, end]);
  }
  return matches;
}
