import { describe, expect, it } from 'vitest';
import { rememberLast } from './remember-last';

describe('rememberLast', () => {
  it('computes a text once while it is among the last `max`, and forgets the least recent', () => {
    const seen: string[] = [];
    const upper = rememberLast(2, (text) => {
      seen.push(text);
      return text.toUpperCase();
    });
    expect([upper('a'), upper('b'), upper('a')]).toEqual(['A', 'B', 'A']);
    expect(seen).toEqual(['a', 'b']);
    upper('c'); // 'b' is the least recently used now: it goes
    expect([upper('a'), upper('b')]).toEqual(['A', 'B']);
    expect(seen).toEqual(['a', 'b', 'c', 'b']);
  });
});
