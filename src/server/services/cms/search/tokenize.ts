import 'server-only';
import { foldForSearch } from '@/lib/japanese-text';
import {
  htmlToText as textOfHtml,
  NON_TEXT_TAGS,
  RUBY_READING_TAGS,
} from '@/lib/text/html-to-text';

/**
 * Search tokens for an inverted index that serves both the content API's `q` and the site
 * search. Japanese has no spaces between words and a morphological analyser would miss
 * substrings that cross its word boundaries, so the index is n-gram based and the contract
 * is exact: the index only narrows candidates, and the caller confirms each candidate with
 * `normalizeForSearch(text).includes(normalizeForSearch(term))`. (A query term comes folded by
 * `foldTerm`, src/lib/japanese-text.ts, which normalizeForSearch leaves as it is.)
 *
 * Soundness (tested as a property): whenever
 * `normalizeForSearch(text).includes(normalizeForSearch(term))` and `indexTokens(text)` is
 * complete, every token of `queryTokens(term)` is in `indexTokens(text).tokens`. It holds
 * because tokens only depend on the characters of a run and every character's class is a
 * property of that character alone, so a run inside the term lies inside one run of the text:
 * - CJK runs (kanji, kana, hangul, ー): the index holds every unigram and bigram; a query run
 *   of one character asks for its unigram, a longer one for its bigrams.
 * - Other letter/digit runs (Latin, accented, Cyrillic, digits): the index holds every trigram,
 *   and a run shorter than 3 as a whole-run token. A query run of 3+ asks for its trigrams.
 *   A shorter query run (`ai`, `3d`) may be part of a longer word in the text, so it is only
 *   asked for when the term itself shows where the word ends on both sides (`ai ` inside
 *   `x ai y`); otherwise it adds no token.
 * `queryTokens` may therefore return [] (`ai`, `a-b`): that means "cannot narrow, scan all".
 *
 * A long text has more distinct n-grams than is worth storing, so `indexTokens` keeps the
 * first MAX_INDEX_TOKENS distinct tokens in reading order and reports `complete: false`. The
 * caller must then treat that document as a candidate for every query (store the flag and
 * OR it into the lookup) so that matches in its tail are still found by the scan.
 */

export const MAX_INDEX_TOKENS = 4000;
export const MAX_QUERY_TERMS = 10;

export type IndexTokens = {
  /** Unique and sorted. */
  tokens: string[];
  /** False when tokens were dropped at MAX_INDEX_TOKENS; see the module comment. */
  complete: boolean;
};

type CharClass = 'cjk' | 'word' | 'other';

// ー is Common script but is part of katakana words (デザイナー); 々〆〇 are Han already.
const CJK = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u30fc]$/u;
const WORD = /^[\p{L}\p{N}\p{M}]$/u;
const LONE_SURROGATE = /^[\uD800-\uDFFF]$/;

type Run = {
  cls: 'cjk' | 'word';
  chars: string[];
  /** The neighbouring character on that side is a well-formed separator, not the term's edge. */
  closedLeft: boolean;
  closedRight: boolean;
};

/**
 * The text as the index and the queries see it (src/lib/japanese-text.ts): NFKC, lower case,
 * hiragana as katakana, long vowel marks folded, whitespace collapsed.
 */
export function normalizeForSearch(text: string): string {
  return foldForSearch(text);
}

export function indexTokens(text: string, maxTokens = MAX_INDEX_TOKENS): IndexTokens {
  const tokens = new Set<string>();
  const add = (token: string): boolean => {
    if (tokens.size >= maxTokens && !tokens.has(token)) return false;
    tokens.add(token);
    return true;
  };
  let complete = true;
  outer: for (const run of runs(normalizeForSearch(text))) {
    for (const token of indexTokensOfRun(run)) {
      if (!add(token)) {
        complete = false;
        break outer;
      }
    }
  }
  return { tokens: [...tokens].sort(), complete };
}

export function queryTokens(term: string): string[] {
  const tokens = new Set<string>();
  for (const run of runs(normalizeForSearch(term))) {
    const { chars } = run;
    if (run.cls === 'cjk') {
      if (chars.length === 1) tokens.add(chars.join(''));
      else for (const gram of ngrams(chars, 2)) tokens.add(gram);
    } else if (chars.length >= 3) {
      for (const gram of ngrams(chars, 3)) tokens.add(gram);
    } else if (run.closedLeft && run.closedRight) {
      tokens.add(chars.join(''));
    }
  }
  return [...tokens].sort();
}

/** The terms of a `q` string: split on any whitespace (full-width space too), deduplicated. */
export function splitQuery(q: string): string[] {
  const terms = new Set(q.split(/\s+/u).filter((term) => term !== ''));
  return [...terms].slice(0, MAX_QUERY_TERMS);
}

// Inline elements do not break words: デザ<em>イン</em> is still デザイン. Any other element,
// known or not, separates the text around it.
const INLINE_TAGS: ReadonlySet<string> = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'big',
  'cite',
  'code',
  'data',
  'del',
  'dfn',
  'em',
  'font',
  'i',
  'ins',
  'kbd',
  'label',
  'mark',
  'q',
  'ruby',
  's',
  'samp',
  'small',
  'span',
  'strike',
  'strong',
  'sub',
  'sup',
  'time',
  'tt',
  'u',
  'var',
  'wbr',
]);

// What the sanitiser drops as not prose, and ruby readings (漢字<rt>かんじ</rt> would otherwise
// index 漢字かんじ).
const NOT_INDEXED: ReadonlySet<string> = new Set([...NON_TEXT_TAGS, ...RUBY_READING_TAGS]);

/** Plain text of rich-text HTML for indexing: tags removed, entities decoded. */
export function htmlToText(html: string): string {
  return textOfHtml(html, {
    skip: NOT_INDEXED,
    edge: (name) => (INLINE_TAGS.has(name) ? '' : ' '),
    whitespace: 'collapse',
  });
}

function classify(ch: string): CharClass {
  if (CJK.test(ch)) return 'cjk';
  if (WORD.test(ch)) return 'word';
  return 'other';
}

function runs(normalized: string): Run[] {
  const result: Run[] = [];
  let current: Run | null = null;
  let previous: string | null = null;
  for (const ch of normalized) {
    const cls = classify(ch);
    if (current && cls !== current.cls) {
      current.closedRight = isSeparatorBoundary(ch);
      result.push(current);
      current = null;
    }
    if (cls !== 'other') {
      if (!current) {
        current = {
          cls,
          chars: [],
          closedLeft: previous !== null && isSeparatorBoundary(previous),
          closedRight: false,
        };
      }
      current.chars.push(ch);
    }
    previous = ch;
  }
  if (current) result.push(current);
  return result;
}

// A lone surrogate in a term may be half of a letter in the text, so it proves no boundary.
function isSeparatorBoundary(ch: string): boolean {
  return !LONE_SURROGATE.test(ch);
}

function* indexTokensOfRun(run: Run): Generator<string> {
  const { chars } = run;
  if (run.cls === 'cjk') {
    for (let i = 0; i < chars.length; i++) {
      yield chars[i] ?? '';
      if (i + 1 < chars.length) yield (chars[i] ?? '') + (chars[i + 1] ?? '');
    }
  } else if (chars.length >= 3) {
    yield* ngrams(chars, 3);
  } else {
    yield chars.join('');
  }
}

function ngrams(chars: string[], n: number): string[] {
  const grams: string[] = [];
  for (let i = 0; i + n <= chars.length; i++) grams.push(chars.slice(i, i + n).join(''));
  return grams;
}
