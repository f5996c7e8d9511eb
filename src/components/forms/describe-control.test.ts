import { describe, expect, it } from 'vitest';
import { describeControl } from './describe-control';

describe('describeControl', () => {
  it.each([
    [{}, undefined, undefined],
    [{ hint: 'ヒント' }, 'f-hint', undefined],
    [{ error: 'エラー' }, 'f-error', true],
    [{ hint: 'ヒント', warning: '注意', error: 'エラー' }, 'f-hint f-warning f-error', true],
    [{ hint: '', warning: null, error: null }, undefined, undefined],
  ])('%o: described by %s, invalid %s', (shown, describedBy, invalid) => {
    expect(describeControl('f', shown)).toEqual({
      'aria-describedby': describedBy,
      'aria-invalid': invalid,
    });
  });
});
