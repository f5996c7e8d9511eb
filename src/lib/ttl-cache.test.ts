import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache';

describe('TtlCache', () => {
  it('returns what was stored until it expires', () => {
    let now = 0;
    const cache = new TtlCache<string>(100, 10, () => now);
    cache.set('a', 'x');
    now = 99;
    expect(cache.get('a')).toBe('x');
    now = 100;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the least recently used entry when full', () => {
    const cache = new TtlCache<number>(1000, 2);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.get('a'); // a is now the most recently used
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });

  it('drops the entries a test picks, and only those', () => {
    const cache = new TtlCache<number>(1000);
    for (const [key, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const)
      cache.set(key, value);
    cache.deleteWhere((value) => value % 2 === 1);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, undefined]);
  });
});
