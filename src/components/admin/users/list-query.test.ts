import { describe, expect, it } from 'vitest';
import { listHref, parseAuditQuery, parseUsersQuery } from './list-query';

describe('parseUsersQuery', () => {
  it('keeps a search and a page', () => {
    expect(parseUsersQuery({ q: ' 山田 ', page: '3' })).toEqual({ q: '山田', page: 3 });
  });

  it('drops junk instead of failing', () => {
    expect(parseUsersQuery({ q: ['a', 'b'], page: 'abc' })).toEqual({ q: '', page: 1 });
    expect(parseUsersQuery({ q: 'x'.repeat(101), page: '0' })).toEqual({ q: '', page: 1 });
    expect(parseUsersQuery({ page: '-2' })).toEqual({ q: '', page: 1 });
    expect(parseUsersQuery({ page: '99999999' })).toEqual({ q: '', page: 1 });
  });
});

describe('parseAuditQuery', () => {
  it('keeps an action name and text', () => {
    expect(parseAuditQuery({ action: 'role-changed', q: 'user:abc', page: '2' })).toEqual({
      action: 'role-changed',
      q: 'user:abc',
      page: 2,
    });
  });

  it('drops an action name that no action could have', () => {
    expect(parseAuditQuery({ action: "x' OR 1=1" }).action).toBe('');
    expect(parseAuditQuery({ action: ['a'] }).action).toBe('');
  });
});

describe('listHref', () => {
  it('leaves out empty parameters and the first page', () => {
    expect(listHref('/admin/users', { q: '', page: 1 })).toBe('/admin/users');
    expect(listHref('/admin/users', { q: 'a b', page: 2 })).toBe('/admin/users?q=a+b&page=2');
  });
});
