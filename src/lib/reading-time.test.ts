import { describe, expect, it } from 'vitest';
import {
  JAPANESE_CHARACTERS_PER_MINUTE,
  countCharacters,
  readingMinutes,
  readingStats,
  readingTimeLabel,
} from './reading-time';

describe('countCharacters', () => {
  it('counts what a reader sees as one character, punctuation in, whitespace out', () => {
    expect(countCharacters('デザインの話。')).toBe(7);
    expect(countCharacters('が')).toBe(1); // か + combining sound mark
    expect(countCharacters('👩‍💻 と　椅子\n')).toBe(4);
    expect(countCharacters('Design 2026')).toBe(10);
    expect(countCharacters(' \n\t　')).toBe(0);
  });
});

describe('reading time', () => {
  it('rounds to whole minutes at the stated pace, never 0 for a text', () => {
    expect(JAPANESE_CHARACTERS_PER_MINUTE).toBe(500);
    expect(readingMinutes(0)).toBe(0);
    expect(readingMinutes(1)).toBe(1);
    expect(readingMinutes(1_249)).toBe(2);
    expect(readingMinutes(1_250)).toBe(3);
    expect(readingStats('あ'.repeat(3_000))).toEqual({ characters: 3_000, minutes: 6 });
  });

  it('labels in Japanese', () => {
    expect(readingTimeLabel(0)).toBe('0分');
    expect(readingTimeLabel(120)).toBe('1分未満');
    expect(readingTimeLabel(2_600)).toBe('約5分');
  });
});

describe('countCharacters: the fast path agrees with segmenting', () => {
  it('gives the grapheme count for plain text and for text with joining marks', () => {
    const plain = '漆の器を選ぶ、Design 2026。「手」と（目）！'.repeat(50);
    const segmented = (text: string) =>
      [...new Intl.Segmenter('ja', { granularity: 'grapheme' }).segment(text)].filter(
        (s) => !/^\s+$/u.test(s.segment),
      ).length;
    for (const text of [plain, `${plain}が`, `${plain}🇯🇵👍🏽`, `${plain}葛󠄀`])
      expect(countCharacters(text)).toBe(segmented(text));
  });
});
