import { describe, expect, it } from 'vitest';
import { formatDateJa, formatDateTime, formatDurationJa, isoDateJa } from './format';

describe('formatDateJa', () => {
  it('writes the date in Japan time as 2026年11月21日', () => {
    expect(formatDateJa('2026-11-21T03:00:00.000Z')).toBe('2026年11月21日');
    // 20:00 UTC is already the next day in Japan.
    expect(formatDateJa('2026-11-20T20:00:00.000Z')).toBe('2026年11月21日');
    expect(isoDateJa('2026-11-20T20:00:00.000Z')).toBe('2026-11-21');
  });
  it('gives an empty string for an invalid date', () => {
    expect(formatDateJa('not a date')).toBe('');
  });
});

describe('formatDurationJa', () => {
  it.each([
    [0, '0秒'],
    [45, '45秒'],
    [300, '5分'],
    [3725, '1時間2分5秒'],
    [7200, '2時間'],
  ])('%i seconds → %s', (seconds, text) => {
    expect(formatDurationJa(seconds)).toBe(text);
  });
});

describe('formatDateTime', () => {
  it('shows the date and the 24-hour time in Japan', () => {
    expect(formatDateTime('2026-11-21T15:04:00.000Z')).toBe('2026年11月22日 00:04');
    expect(formatDateTime('not a date')).toBe('');
  });
});
