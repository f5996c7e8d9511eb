import { SEARCH_MAX_PAGE, cleanQuery, parseSearchRequest, searchHref } from './search-request';
import type { SearchKey } from './search-listers';
import { mergeRanked, pageCount } from './site-search';

describe('parseSearchRequest', () => {
  it('reads q, type and page', () => {
    expect(parseSearchRequest({ q: 'グリッド', type: 'posts', page: '3' })).toEqual({
      q: 'グリッド',
      type: 'posts',
      page: 3,
    });
    expect(parseSearchRequest({})).toEqual({ q: '', type: 'all', page: 1 });
  });

  it('falls back to the defaults for anything malformed', () => {
    for (const page of ['0', '-1', 'abc', '1.5', '', ' 2', '1e3', '9999999999']) {
      expect(parseSearchRequest({ page }).page, page).toBe(1);
    }
    for (const type of ['connect', 'POSTS', '', 'all ']) {
      expect(parseSearchRequest({ type }).type, type).toBe('all');
    }
    expect(parseSearchRequest({ page: '100000' }).page).toBe(SEARCH_MAX_PAGE);
    // Repeated parameters: the first one counts.
    expect(
      parseSearchRequest({ q: ['模型', '建築'], type: ['jobs', 'posts'], page: ['2', '5'] }),
    ).toEqual({
      q: '模型',
      type: 'jobs',
      page: 2,
    });
  });

  it('cleans the query: spaces collapsed, control characters dropped, at most 100 characters', () => {
    expect(parseSearchRequest({ q: '  模型　\t建築  ' }).q).toBe('模型 建築');
    expect(parseSearchRequest({ q: 'a\u0000b' }).q).toBe('a b');
    expect(parseSearchRequest({ q: '\ud800漆器' }).q).toBe('漆器');
    expect([...parseSearchRequest({ q: '🎨'.repeat(150) }).q]).toHaveLength(100);
    expect(cleanQuery(`${'あ'.repeat(99)} い`)).toBe('あ'.repeat(99));
  });
});

describe('searchHref', () => {
  it('leaves out the defaults', () => {
    expect(searchHref({})).toBe('/search');
    expect(searchHref({ q: '余白', type: 'all', page: 1 })).toBe('/search?q=%E4%BD%99%E7%99%BD');
    expect(searchHref({ q: 'a&b', type: 'jobs', page: 2 })).toBe(
      '/search?q=a%26b&type=jobs&page=2',
    );
  });
});

describe('mergeRanked', () => {
  const key = (type: SearchKey['type'], id: string, day: number, whole = false): SearchKey => ({
    type,
    id,
    date: new Date(Date.UTC(2026, 0, day)).toISOString(),
    whole,
  });

  it('merges newest first, keeping each list’s order and the list order on ties', () => {
    const posts = [key('posts', 'p3', 9), key('posts', 'p2', 5), key('posts', 'p1', 5)];
    const movies = [key('movies', 'm2', 7), key('movies', 'm1', 5)];
    const jobs = [key('jobs', 'j1', 10)];
    expect(mergeRanked([posts, [], movies, jobs]).map((k) => k.id)).toEqual([
      'j1',
      'p3',
      'm2',
      'p2',
      'p1',
      'm1',
    ]);
    expect(mergeRanked([])).toEqual([]);
  });

  it('puts whole-word matches of every type first, then the rest, each part newest first', () => {
    const posts = [key('posts', 'p2', 6, true), key('posts', 'p9', 9), key('posts', 'p1', 1)];
    const jobs = [key('jobs', 'j8', 8, true), key('jobs', 'j5', 5, true), key('jobs', 'j7', 7)];
    expect(mergeRanked([posts, jobs]).map((k) => k.id)).toEqual([
      'j8',
      'p2',
      'j5',
      'p9',
      'j7',
      'p1',
    ]);
  });
});

describe('pageCount', () => {
  it('is at least 1 and at most the deepest page offered', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(10)).toBe(1);
    expect(pageCount(11)).toBe(2);
    expect(pageCount(1_000_000)).toBe(SEARCH_MAX_PAGE);
  });
});
