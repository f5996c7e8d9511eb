import { describe, expect, it } from 'vitest';
import { type Write, allowedValues } from './ledger';

const write = (value: string, outcome: Write['outcome']): Write => ({
  kind: 'edit',
  target: 'posts:a',
  value,
  outcome,
});

describe('allowedValues (what a target may hold after the kill)', () => {
  it('is the initial value when nothing was acknowledged or in flight', () => {
    expect(allowedValues([], 'off')).toEqual(new Set(['off']));
    expect(allowedValues([write('on', 'refused')], 'off')).toEqual(new Set(['off']));
  });

  it('is the last acknowledged value, not an earlier one', () => {
    const writes = [write('v1', 'acked'), write('v2', 'acked'), write('v3', 'refused')];
    expect(allowedValues(writes, 'v0')).toEqual(new Set(['v2']));
  });

  it('admits the value of the write cut by the kill beside the last acknowledged one', () => {
    const writes = [write('v1', 'acked'), write('v2', 'in-flight')];
    expect(allowedValues(writes, 'v0')).toEqual(new Set(['v1', 'v2']));
  });
});
