import 'server-only';
import { foldForSearch, foldTerm } from '@/lib/japanese-text';

/**
 * What the analyser's words of a text give the index besides its reading
 * (docs/decisions/042-search-by-reading.md): the text's whole words, so that the site search
 * ranks an item where a term is a word (紙, 神 for かみ) above one where it is only part of a word
 * (温かみ); and how each word with kanji reads, so that the kanji a kana term found can be marked
 * on the page without running the analyser per query.
 */

/** One word of the analyser: its text and, when the dictionary knows it, its reading in katakana. */
export type Morpheme = { surface: string; reading: string | null };

/**
 * Kanji as written and how they read, both folded like the index's text (漆, ウルシ). Kana the
 * word begins or ends with in both (okurigana, お of お茶) is split off: it is its own reading, so
 * 温かみ gives 温 → アタタ and かみ stays a kana match, not a mark on 温.
 */
export type ReadingPair = readonly [surface: string, reading: string];

const HAN = /\p{sc=Han}/u;
const KANA = /^[\p{sc=Hiragana}\p{sc=Katakana}\u30fc]+$/u;
/** A folded kana letter or ー: a character that is its own reading. */
const FOLDED_KANA = /^[\p{sc=Katakana}\u30fc]$/u;
/** A word worth ranking by holds a letter or a digit (not punctuation, not a space). */
const WORDLIKE = /[\p{L}\p{N}]/u;
/** Runs of one script, for a text the analyser did not read: the best guess at its words. */
const SCRIPT_RUN =
  /\p{sc=Han}+|[\p{sc=Katakana}\u30fc]+|\p{sc=Hiragana}+|(?:(?![\p{sc=Han}\p{sc=Katakana}\p{sc=Hiragana}\u30fc])[\p{L}\p{N}\p{M}])+/gu;

/** Whether a word with kanji has a reading the index can use (kana only). */
const readable = (word: Morpheme): word is { surface: string; reading: string } =>
  HAN.test(word.surface) && word.reading !== null && KANA.test(word.reading);

/**
 * The whole words of a text as the query folds a term (foldTerm): each word's text, and the
 * reading of each word with kanji. A term equal to one of them is a whole-word match.
 */
export function wordsOf(words: readonly Morpheme[]): string[] {
  const found = new Set<string>();
  for (const word of words) {
    if (!WORDLIKE.test(word.surface)) continue;
    found.add(foldTerm(word.surface));
    if (readable(word)) found.add(foldTerm(word.reading));
  }
  found.delete('');
  return [...found];
}

/** The words of a text read without the analyser (no kanji, or the analyser failed): script runs. */
export function scriptWords(text: string): string[] {
  const found = new Set((text.match(SCRIPT_RUN) ?? []).map(foldTerm));
  found.delete('');
  return [...found];
}

/** The distinct reading pairs of a text's words with kanji (see ReadingPair). */
export function readingPairs(words: readonly Morpheme[]): ReadingPair[] {
  const pairs = new Map<string, ReadingPair>();
  for (const word of words) {
    if (!readable(word)) continue;
    const pair = splitKana([...foldForSearch(word.surface)], [...foldForSearch(word.reading)]);
    if (pair) pairs.set(`${pair[0]} ${pair[1]}`, pair);
  }
  return [...pairs.values()];
}

/** Drops the kana a surface and its reading share at either end; null if nothing is left to read. */
function splitKana(surface: string[], reading: string[]): ReadingPair | null {
  let start = 0;
  while (
    start < surface.length - 1 &&
    start < reading.length - 1 &&
    surface[start] === reading[start] &&
    FOLDED_KANA.test(surface[start]!)
  )
    start++;
  let end = 0;
  while (
    end < surface.length - start - 1 &&
    end < reading.length - start - 1 &&
    surface[surface.length - 1 - end] === reading[reading.length - 1 - end] &&
    FOLDED_KANA.test(surface[surface.length - 1 - end]!)
  )
    end++;
  const kept = surface.slice(start, surface.length - end).join('');
  const read = reading.slice(start, reading.length - end).join('');
  return HAN.test(kept) && read !== '' ? [kept, read] : null;
}
