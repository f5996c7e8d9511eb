import { describe, expect, it } from 'vitest';
import { isFiltered, jobsHref, parseJobQuery } from './job-query';

describe('the /jobs query', () => {
  it('reads the filters that are in their vocabularies', () => {
    expect(
      parseJobQuery({
        type: '正社員',
        occupation: 'エンジニア',
        location: '東京都',
        partner: 'partner-sorane',
        page: '2',
      }),
    ).toEqual({
      type: '正社員',
      occupation: 'エンジニア',
      location: '東京都',
      partner: 'partner-sorane',
      page: 2,
    });
    expect(parseJobQuery({ location: 'remote' })).toEqual({ location: 'remote', page: 1 });
  });

  it('ignores values that are not options, one by one, and never throws', () => {
    expect(
      parseJobQuery({
        type: '正社員[or]title[exists]',
        occupation: '',
        location: 'Tokyo',
        partner: 'a b',
        page: '-1',
      }),
    ).toEqual({ page: 1 });
    // One bad value does not drop the good ones; a repeated parameter counts once.
    expect(parseJobQuery({ type: 'パート', location: ['大阪府', '東京都'] })).toEqual({
      location: '大阪府',
      page: 1,
    });
    expect(parseJobQuery({ partner: 'x'.repeat(51) })).toEqual({ page: 1 });
  });

  it('knows when a filter is in use', () => {
    expect(isFiltered(parseJobQuery({ page: '3' }))).toBe(false);
    expect(isFiltered(parseJobQuery({ location: 'remote' }))).toBe(true);
  });

  it('writes the filters back in a fixed order, page 1 left out', () => {
    expect(jobsHref({})).toBe('/jobs');
    expect(jobsHref({ page: 1 })).toBe('/jobs');
    expect(jobsHref({ partner: 'p1', type: '業務委託', page: 3 })).toBe(
      `/jobs?type=${encodeURIComponent('業務委託')}&partner=p1&page=3`,
    );
  });
});
