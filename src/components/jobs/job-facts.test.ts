import { describe, expect, it } from 'vitest';
import { JOB_CONDITIONS } from '@test-support/jobs';
import { areaLabel, placeLabel, salaryLabel } from './job-facts';

const job = JOB_CONDITIONS;

describe("a listing's conditions in Japanese", () => {
  it('names the area: the prefecture, or フルリモート', () => {
    expect(areaLabel(job)).toBe('東京都');
    expect(areaLabel({ prefecture: [], remote: ['フルリモート'] })).toBe('フルリモート');
    expect(areaLabel({ prefecture: [], remote: [] })).toBeNull();
  });

  it('writes the place in full, the prefecture once, with partial remote work noted', () => {
    expect(placeLabel(job)).toBe('東京都 渋谷区神宮前');
    expect(placeLabel({ ...job, location: '東京都渋谷区神宮前' })).toBe('東京都渋谷区神宮前');
    expect(placeLabel({ ...job, remote: ['一部リモート'] })).toBe(
      '東京都 渋谷区神宮前 ／ 一部リモート',
    );
    expect(
      placeLabel({ prefecture: [], remote: ['フルリモート'], location: '打ち合わせは月2回' }),
    ).toBe('フルリモート ／ 打ち合わせは月2回');
    expect(placeLabel({ prefecture: [], remote: [], location: null })).toBeNull();
  });

  it('writes the salary range with its unit', () => {
    expect(salaryLabel(job)).toBe('年収 420万〜650万円');
    expect(salaryLabel({ salaryUnit: ['時給'], salaryMin: 1_150, salaryMax: null })).toBe(
      '時給 1,150円〜',
    );
    expect(salaryLabel({ salaryUnit: [], salaryMin: null, salaryMax: null })).toBeNull();
  });
});
