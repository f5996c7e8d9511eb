import { describe, expect, it } from 'vitest';
import { parseMediaQuery } from './list-query';

describe('parseMediaQuery', () => {
  it('reads search, kind and page', () => {
    expect(parseMediaQuery({ q: ' 表紙 ', kind: 'audio', page: '3' })).toEqual({
      q: '表紙',
      kind: 'audio',
      page: 3,
    });
  });

  it('drops what is out of shape instead of failing', () => {
    expect(parseMediaQuery({ q: ['a', 'b'], kind: 'pdf', page: '-1' })).toEqual({
      q: '',
      kind: '',
      page: 1,
    });
    expect(parseMediaQuery({ q: 'x'.repeat(101), page: 'two' })).toEqual({
      q: '',
      kind: '',
      page: 1,
    });
  });
});
