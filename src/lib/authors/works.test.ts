import { describe, expect, it } from 'vitest';
import { authorPath, byNewest, mergedWindow, releasedAt, seriesPath } from './works';

const item = (id: string, publishedAt: string | undefined, createdAt = '2026-01-01T00:00:00Z') => ({
  id,
  publishedAt,
  createdAt,
});

describe('merging an author page', () => {
  const posts = [item('p2', '2026-03-01T00:00:00Z'), item('p1', '2026-01-10T00:00:00Z')];
  const audios = [item('a1', '2026-02-01T00:00:00Z')];
  const movies = [
    item('m1', '2026-03-01T00:00:00Z'),
    item('m0', undefined, '2025-12-01T00:00:00Z'),
  ];

  it('lists every type in one order, newest first, equal moments by id', () => {
    expect(mergedWindow([posts, audios, movies], 0, 10, (x) => x).map((x) => x.id)).toEqual([
      'm1',
      'p2',
      'a1',
      'p1',
      'm0',
    ]);
  });

  it('cuts one page out of the merged list, empty past its end', () => {
    const ids = (start: number, size: number) =>
      mergedWindow([posts, audios, movies], start, size, (x) => x).map((x) => x.id);
    expect(ids(0, 2)).toEqual(['m1', 'p2']);
    expect(ids(2, 2)).toEqual(['a1', 'p1']);
    expect(ids(4, 2)).toEqual(['m0']);
    expect(ids(6, 2)).toEqual([]);
    expect(ids(-3, 1)).toEqual(['m1']);
  });

  it('reads the date through the caller, and an unreadable date as the oldest', () => {
    const wrapped = [{ at: item('x', 'not a date') }, { at: item('y', '2026-01-01T00:00:00Z') }];
    expect(mergedWindow([wrapped], 0, 2, (w) => w.at).map((w) => w.at.id)).toEqual(['y', 'x']);
    expect(releasedAt(item('z', undefined, '2026-01-02T00:00:00Z'))).toBe(
      Date.parse('2026-01-02T00:00:00Z'),
    );
    expect(byNewest(item('a', '2026-01-01'), item('b', '2026-01-01'))).toBeLessThan(0);
  });

  it('builds the pages paths with the id escaped', () => {
    expect(authorPath('writer-tanaka')).toBe('/authors/writer-tanaka');
    expect(seriesPath('a b')).toBe('/series/a%20b');
  });
});
