/**
 * Folding Japanese text for search: the one normalisation the index, the query and the
 * highlighting share, so that what matches in SQL is what is marked on the page.
 *
 * 1. NFKC: full-width latin and digits (ＡＢＣ, ２０２６) become half-width, half-width
 *    katakana becomes full-width with its sound marks joined (ﾎﾟ → ポ, ｶﾞ → ガ), ｰ becomes ー.
 * 2. Lower case.
 * 3. Hiragana becomes katakana (たいぽぐらふぃ → タイポグラフィ). Only the script changes:
 *    は and ば, つ and っ stay different letters.
 * 4. A dash or tilde written right after kana stands for ー (デザイナ－, サ～バ), and repeated
 *    marks count once (すごーーい).
 * 5. Whitespace runs become one space.
 *
 * Inside a word ー is a letter (ビル is not ビール), so the text keeps it. A query term drops
 * the ー at its end when the word before it has three morae or more (`foldTerm`): such words
 * are written both ways (サーバ / サーバー, the JIS Z 8301 style or not), and the term without
 * it finds both. A shorter word is always written with it (カラー, バー), and keeps it: カラ
 * would also find the particle から, folded to katakana. Folding depends on no character
 * after the one folded, and a term only loses a mark at its end, so a term that occurs in a
 * text still occurs once both are folded.
 *
 * The work is done per unit (a base character and the marks that combine with it, as a reader
 * sees one character), and every folded character remembers its unit: `foldUnits` maps a match
 * in the folded text back to the text as written, for highlighting.
 */

export type FoldedUnit = {
  /** The unit as written. */
  text: string;
  /** What it folds to; '' when it folds away (a repeated space or long vowel mark). */
  folded: string;
  /** A long vowel mark after kana (ー, ｰ, or a dash standing in for it). */
  longVowel: boolean;
};

// Marks that combine with the character before them: combining marks, the half-width
// (semi-)voiced sound marks, and ZWJ (which also joins the character after it).
const COMBINING = /^[\p{M}\u200d\uff9e\uff9f]$/u;
const HIRAGANA = /[\u3041-\u3096\u309d\u309e]/g;
/** Hiragana and katakana sit 0x60 code points apart. */
const KATAKANA_OFFSET = 0x60;
/** Kana letters once folded: katakana, its iteration marks and small letters; not ー, not ・. */
const KANA = /^[ァ-ヺヽ-ヿㇰ-ㇿ]$/;
const LONG_VOWEL = 'ー';
/**
 * After NFKC, what people type for ー when the IME or the font betrays them: hyphen-minus
 * (from －), hyphen, non-breaking hyphen, minus sign, tilde (from ～) and wave dash.
 */
const LONG_VOWEL_STAND_INS: ReadonlySet<string> = new Set([
  '-',
  '\u2010',
  '\u2011',
  '\u2212',
  '~',
  '\u301c',
]);
const WHITESPACE = /\s/gu;

const ZWJ_CODE = 0x200d;

// Whether a BMP character combines, worked out once per character: 0 not yet known, 1 no, 2 yes.
const combiningBmp = new Uint8Array(0x10000);

/** Whether the character at `at` combines with the one before it. */
function combinesAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  // Nothing below U+0300 combines: most latin text is decided here.
  if (code < 0x300) return false;
  if (code >= 0xd800 && code <= 0xdfff)
    return COMBINING.test(String.fromCodePoint(text.codePointAt(at)!));
  let known = combiningBmp[code]!;
  if (known === 0) {
    known = COMBINING.test(String.fromCharCode(code)) ? 2 : 1;
    combiningBmp[code] = known;
  }
  return known === 2;
}

/** UTF-16 length of the character at `at`: 2 for a surrogate pair, else 1 (a lone half too). */
function charLength(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
}

/**
 * Where the unit starting at `at` ends: a base character with what combines with it (が as
 * か+゛, ｶﾞ, 👩‍🎨; ZWJ also joins the character after it).
 */
function unitEnd(text: string, at: number): number {
  let end = at + charLength(text, at);
  while (end < text.length && (text.charCodeAt(end - 1) === ZWJ_CODE || combinesAt(text, end)))
    end += charLength(text, end);
  return end;
}

const toKatakana = (text: string) =>
  text.replace(HIRAGANA, (ch) => String.fromCharCode(ch.charCodeAt(0) + KATAKANA_OFFSET));

const foldAlone = (unit: string) =>
  toKatakana(unit.normalize('NFKC').toLowerCase()).replace(WHITESPACE, ' ');

// What one unit folds to on its own. Texts repeat their characters, and String#normalize is
// by far the slowest step, so answers are kept: per code for single BMP characters, in a
// bounded table (cleared when full) for the rest.
const singleFolds = new Array<string | undefined>(0x10000);
// module-state: a memo of a pure function, right in every copy of the module.
const unitFolds = new Map<string, string>();
const UNIT_FOLDS_MAX = 10_000;

function foldOneUnit(text: string, start: number, end: number): string {
  if (end === start + 1) return (singleFolds[text.charCodeAt(start)] ??= foldAlone(text[start]!));
  const unit = text.slice(start, end);
  let folded = unitFolds.get(unit);
  if (folded === undefined) {
    folded = foldAlone(unit);
    if (unitFolds.size >= UNIT_FOLDS_MAX) unitFolds.clear();
    unitFolds.set(unit, folded);
  }
  return folded;
}

/**
 * Folds a text unit by unit, in one pass: each unit's folding depends on it and on what was
 * kept before it, never on what follows (the module comment says why). `take` gets each
 * unit's place in the text, what it folds to, and whether it is a long vowel mark.
 */
function foldEach(
  text: string,
  take: (start: number, end: number, folded: string, longVowel: boolean) => void,
): void {
  let previous = ''; // the last character kept
  let previousSpace = true; // no space at the start
  for (let start = 0, end = 0; start < text.length; start = end) {
    end = unitEnd(text, start);
    const bases = foldOneUnit(text, start, end);
    if (bases.length === 1 && bases !== ' ' && !isLongVowelLike(bases)) {
      // Most units: one character that no rule below touches.
      previous = bases;
      previousSpace = false;
      take(start, end, bases, false);
      continue;
    }
    let folded = '';
    let longVowel = bases !== '';
    for (const base of bases) {
      let ch = base;
      // ー and the dashes standing in for it, after kana, are long vowel marks; repeats count once.
      const mark = isLongVowelLike(ch) && isKanaOrMark(previous);
      if (mark) ch = previous === LONG_VOWEL ? '' : LONG_VOWEL;
      // A unit is a long vowel mark when everything it folds from is one (not ㌍ → カロリー).
      longVowel &&= mark;
      if (ch === '') continue;
      previous = ch;
      // Whitespace runs become one space.
      const space = ch === ' ';
      if (!(space && previousSpace)) folded += ch;
      previousSpace = space;
    }
    take(start, end, folded, longVowel);
  }
}

/** Each unit as written, with its folded form. */
export function foldUnits(text: string): FoldedUnit[] {
  const units: FoldedUnit[] = [];
  foldEach(text, (start, end, folded, longVowel) =>
    units.push({ text: text.slice(start, end), folded, longVowel }),
  );
  return units;
}

/** The folded text: what the index stores and what a query term is looked up as. */
export function foldForSearch(text: string): string {
  let out = '';
  foldEach(text, (_start, _end, folded) => {
    out += folded;
  });
  return out.trim();
}

/**
 * A query term as it is looked up: folded, and without the ー at its end after a word of
 * three morae or more (デザイナー → デザイナ, which finds デザイナー and デザイナ alike).
 */
export function foldTerm(term: string): string {
  const folded = foldForSearch(term);
  if (!folded.endsWith(LONG_VOWEL)) return folded;
  const word = folded.slice(0, -LONG_VOWEL.length);
  return moraeAtEnd(word) >= VARIABLE_WORD_MORAE ? word : folded;
}

/** From this many morae before it, a word's final ー may be left out in writing (JIS Z 8301). */
const VARIABLE_WORD_MORAE = 3;
// Small kana join the letter before them into one mora (ティ, キャ).
const SMALL_KANA = /^[ァィゥェォャュョヮ]$/;

/** The morae of the kana word the folded text ends with (サーバ 3, ティ 1, 東京 0). */
function moraeAtEnd(folded: string): number {
  let morae = 0;
  for (const ch of [...folded].reverse()) {
    if (!isKanaOrMark(ch)) break;
    if (!SMALL_KANA.test(ch)) morae++;
  }
  return morae;
}

function isLongVowelLike(ch: string): boolean {
  return ch === LONG_VOWEL || LONG_VOWEL_STAND_INS.has(ch);
}

function isKanaOrMark(ch: string): boolean {
  return ch === LONG_VOWEL || KANA.test(ch);
}
