import { describe, expect, it } from 'vitest';
import { parseAxisAdminQuery } from './list-query';

describe('the parameters of /biz/axis-admin', () => {
  it('reads a search and both lists’ pages', () => {
    expect(parseAxisAdminQuery({ q: ' ソラネ ', page: '2', ipage: '3' })).toEqual({
      q: 'ソラネ',
      page: 2,
      ipage: 3,
    });
  });

  it('drops what is out of shape instead of failing the page', () => {
    expect(
      parseAxisAdminQuery({
        q: ['a', 'b'],
        page: '0',
        ipage: '-1',
        other: 'x',
      }),
    ).toEqual({ q: '', page: 1, ipage: 1 });
    expect(parseAxisAdminQuery({ q: 'あ'.repeat(101), page: '1e3', ipage: '99999' })).toEqual({
      q: '',
      page: 1,
      ipage: 1,
    });
  });
});
