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
  let count = 0;
  for (const { segment } of graphemes.segment(text)) if (!/^\s+$/u.test(segment)) count++;
  return count;
}

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
