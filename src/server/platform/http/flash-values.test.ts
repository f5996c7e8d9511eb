import { describe, expect, it } from 'vitest';
import { clipUtf8, clippedFields } from './flash-values';

describe('clipUtf8', () => {
  it('keeps text that fits and cuts the rest at a whole character', () => {
    expect(clipUtf8('abc', 3)).toBe('abc');
    expect(clipUtf8('あいう', 9)).toBe('あいう');
    expect(clipUtf8('あいう', 8)).toBe('あい');
    expect(clipUtf8('😀😀', 5)).toBe('😀');
  });
});

describe('clippedFields', () => {
  it('keeps only the named text fields, each clipped to its bytes', () => {
    const flash = clippedFields({ name: 6, message: 3 });
    expect(flash({ name: '山田花子', message: 'abcdef', extra: 'x', avatar: null })).toEqual({
      name: '山田',
      message: 'abc',
    });
    expect(flash({ name: 1 })).toEqual({});
  });
});
