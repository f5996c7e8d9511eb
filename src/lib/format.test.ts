import { describe, expect, it } from 'vitest';
import {
  fileStampJa,
  formatDateJa,
  formatDateTime,
  formatDurationJa,
  formatNumber,
  formatYen,
  isoDateJa,
  japanClock,
} from './format';

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

describe('Japan time for names and days', () => {
  // 23:59:59 and 00:00 in Japan, a second apart: 14:59:59 and 15:00 UTC.
  const lastSecond = '2026-11-26T14:59:59.000Z';
  const midnight = '2026-11-26T15:00:00.000Z';

  it('reads the clock in Japan around midnight, whatever the input', () => {
    expect(japanClock(lastSecond)).toBe('2026-11-26T23:59:59');
    expect(japanClock(new Date(midnight))).toBe('2026-11-27T00:00:00');
    expect(japanClock(Date.parse(midnight))).toBe('2026-11-27T00:00:00');
    expect(japanClock('not a date')).toBe('');
  });

  it('names files and days by the date in Japan, not in UTC', () => {
    expect(fileStampJa(new Date(lastSecond))).toBe('20261126-2359');
    expect(fileStampJa(new Date(midnight))).toBe('20261127-0000');
    expect(isoDateJa(lastSecond)).toBe('2026-11-26');
    expect(isoDateJa(midnight)).toBe('2026-11-27');
    // New year in Japan while it is still the old year in UTC.
    expect(fileStampJa(new Date('2026-12-31T15:30:00Z'))).toBe('20270101-0030');
  });
});

describe('formatNumber and formatYen', () => {
  it('write numbers as toLocaleString("ja-JP") does, from one formatter', () => {
    for (const n of [0, -0, 7, 999, 1000, 12_345, 1_234_567.5, 12.25, -4200, -999_999, 2 ** 53 - 1])
      expect(formatNumber(n)).toBe(n.toLocaleString('ja-JP'));
    for (let n = -2_000; n <= 2_000_000; n += 997)
      expect(formatNumber(n)).toBe(n.toLocaleString('ja-JP'));
    expect(formatNumber(1_100)).toBe('1,100');
    expect(formatYen(1_100)).toBe('¥1,100');
    expect(formatYen(-300_000)).toBe('-¥300,000');
  });
});
