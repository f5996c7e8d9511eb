import { describe, expect, it } from 'vitest';
import { monthsWithin, spansOutside } from './roll-up';

describe('the months and days the report reads from each roll-up', () => {
  it('takes only the months wholly inside a range, across a year’s end and February', () => {
    expect(monthsWithin('2026-11-01', '2027-02-28')).toEqual([
      '2026-11',
      '2026-12',
      '2027-01',
      '2027-02',
    ]);
    expect(monthsWithin('2027-01-31', '2027-03-01')).toEqual(['2027-02']);
    expect(monthsWithin('2028-02-01', '2028-02-28')).toEqual([]); // a leap year: 29 days
    expect(monthsWithin('2026-04-11', '2026-05-09')).toEqual([]);
  });

  it('leaves the days outside the months summed, gaps included', () => {
    const range = { from: '2025-12-01', to: '2026-05-10' };
    expect(spansOutside(range, ['2025-12', '2026-01', '2026-02', '2026-03', '2026-04'])).toEqual([
      { from: '2026-05-01', to: '2026-05-10' },
    ]);
    // March's sum lost to a late view: its days are read one by one.
    expect(spansOutside(range, ['2025-12', '2026-01', '2026-02', '2026-04'])).toEqual([
      { from: '2026-03-01', to: '2026-03-31' },
      { from: '2026-05-01', to: '2026-05-10' },
    ]);
    expect(spansOutside({ from: '2027-01-31', to: '2027-03-01' }, ['2027-02'])).toEqual([
      { from: '2027-01-31', to: '2027-01-31' },
      { from: '2027-03-01', to: '2027-03-01' },
    ]);
    expect(spansOutside(range, [])).toEqual([range]);
  });
});
