import { describe, expect, it, vi } from 'vitest';
import { listen } from './listen';

describe('listen', () => {
  it('calls each handler for its event until the returned cleanup runs', () => {
    const target = new EventTarget();
    const [one, two] = [vi.fn(), vi.fn()];
    const stop = listen(target, { one, two });
    target.dispatchEvent(new Event('one'));
    target.dispatchEvent(new Event('two'));
    expect([one.mock.calls.length, two.mock.calls.length]).toEqual([1, 1]);
    stop();
    target.dispatchEvent(new Event('one'));
    target.dispatchEvent(new Event('two'));
    expect([one.mock.calls.length, two.mock.calls.length]).toEqual([1, 1]);
  });
});
