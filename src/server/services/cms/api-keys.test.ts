import { describe, expect, it } from 'vitest';
import { LAST_USED_INTERVAL_MS, LastUsedThrottle } from './api-keys';

/** A key's last use is written at most once a minute, per key. */
describe('LastUsedThrottle', () => {
  const T0 = 1_800_000_000_000;

  it('lets the first use of a key through, then none until a minute has passed', () => {
    const throttle = new LastUsedThrottle();
    expect(throttle.take('a', T0)).toBe(true);
    expect(throttle.take('a', T0 + 1)).toBe(false);
    expect(throttle.take('a', T0 + LAST_USED_INTERVAL_MS - 1)).toBe(false);
    expect(throttle.take('a', T0 + LAST_USED_INTERVAL_MS)).toBe(true);
    // The minute counts from the use last let through, not from the first.
    expect(throttle.take('a', T0 + LAST_USED_INTERVAL_MS + 30_000)).toBe(false);
    expect(throttle.take('a', T0 + 2 * LAST_USED_INTERVAL_MS)).toBe(true);
  });

  it('keeps each key apart', () => {
    const throttle = new LastUsedThrottle();
    expect(throttle.take('a', T0)).toBe(true);
    expect(throttle.take('b', T0 + 1)).toBe(true);
    expect(throttle.take('a', T0 + 2)).toBe(false);
    expect(throttle.take('b', T0 + 3)).toBe(false);
  });

  it('stays bounded: past its size it forgets, which costs a write and nothing else', () => {
    const throttle = new LastUsedThrottle(LAST_USED_INTERVAL_MS, 2);
    expect(throttle.take('a', T0)).toBe(true);
    expect(throttle.take('b', T0)).toBe(true);
    expect(throttle.take('c', T0)).toBe(true); // full: forgets a and b
    expect(throttle.take('a', T0 + 1)).toBe(true);
    expect(throttle.take('c', T0 + 2)).toBe(false);
  });

  it('forgets everything when cleared', () => {
    const throttle = new LastUsedThrottle();
    throttle.take('a', T0);
    throttle.clear();
    expect(throttle.take('a', T0 + 1)).toBe(true);
  });
});
