import { act } from '@testing-library/react';
import { afterEach, expect, type Mock, vi } from 'vitest';

/** Moves fake time forward inside act(), so the state updates it causes are applied. */
export function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

/** A describe block's tests may switch to fake timers: each ends back on real ones. */
export function restoreRealTimersAfterEach() {
  afterEach(() => {
    vi.useRealTimers();
  });
}

/** `onClose` is not called a millisecond before `ms` from now, and once at `ms`. */
export function expectCalledOnceAt(onClose: Mock, ms: number) {
  advance(ms - 1);
  expect(onClose).not.toHaveBeenCalled();
  advance(1);
  expect(onClose).toHaveBeenCalledTimes(1);
}
