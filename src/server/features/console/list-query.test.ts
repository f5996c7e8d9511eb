import { describe, expect, it } from 'vitest';
import { parseContentListQuery } from './list-query';

describe('parseContentListQuery', () => {
  it('keeps allowed values', () => {
    expect(
      parseContentListQuery({
        q: ' 建築 ',
        status: 'scheduled',
        category: 'cat-1',
        sort: 'title',
        page: '3',
      }),
    ).toEqual({ q: '建築', status: 'scheduled', category: 'cat-1', sort: 'title', page: 3 });
  });

  it('ignores what is not allowed instead of failing', () => {
    expect(
      parseContentListQuery({
        q: 'a\u0000b',
        status: 'PUBLISH',
        category: '../x',
        sort: 'id; drop',
        page: '1e9',
      }),
    ).toEqual({ q: '', status: '', category: '', sort: 'updated', page: 1 });
    expect(parseContentListQuery({ page: ['2', '5'], status: ['draft', 'x'] })).toMatchObject({
      page: 2,
      status: 'draft',
    });
    expect(parseContentListQuery({ page: '0' }).page).toBe(1);
    expect(parseContentListQuery({ page: '1.5' }).page).toBe(1);
  });
});
