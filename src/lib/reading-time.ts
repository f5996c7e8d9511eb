/**
 * How long a text takes to read, and how many characters it has: one rule for the editor's
 * live 文字数・読了時間 and for the articles that show a reading time. Decision 032 gives the
 * figure and its source.
 */

/** Japanese characters an adult reads silently per minute (decision 032). */
export const JAPANESE_CHARACTERS_PER_MINUTE = 500;

const graphemes = new Intl.Segmenter('ja', { granularity: 'grapheme' });

/**
 * The characters a Japanese editor counts as 文字数: every character as a reader sees one
 * (a kana with its sound mark, an emoji, a letter), punctuation included, whitespace and line
 * breaks not.
 */
export function countCharacters(text: string): number {
  // Segmenting is slow (about 3 ms per 1,000 characters): a text with nothing that joins code
  // points into one character (marks, joiners, selectors, flags, modifiers, jamo) is counted by
  // code points, which then gives the same figure. Article pages and cards count whole bodies.
  if (!JOINING.test(text)) {
    let count = 0;
    for (const ch of text) if (!/\s/u.test(ch)) count++;
    return count;
  }
  let count = 0;
  for (const { segment } of graphemes.segment(text)) if (!/^\s+$/u.test(segment)) count++;
  return count;
}

/** Code points a grapheme may join to another: where counting code points would be wrong. */
const JOINING =
  /[\p{M}\uFE00-\uFE0F\p{Emoji_Modifier}\p{Regional_Indicator}\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\u{E0000}-\u{E01EF}\p{Cf}]/u;

/** Whole minutes to read that many characters: at least 1 for any text, 0 for none. */
export function readingMinutes(characters: number): number {
  if (characters <= 0) return 0;
  return Math.max(1, Math.round(characters / JAPANESE_CHARACTERS_PER_MINUTE));
}

export type ReadingStats = { characters: number; minutes: number };

export function readingStats(text: string): ReadingStats {
  const characters = countCharacters(text);
  return { characters, minutes: readingMinutes(characters) };
}

/** 「約3分」, or 「1分未満」 for a text under half a minute's reading. */
export function readingTimeLabel(characters: number): string {
  if (characters <= 0) return '0分';
  if (characters < JAPANESE_CHARACTERS_PER_MINUTE / 2) return '1分未満';
  return `約${readingMinutes(characters)}分`;
}
