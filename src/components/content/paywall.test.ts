import { describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));
vi.mock('@/server/features/billing/catalogue', () => ({ shownPlans: { get: vi.fn() } }));
vi.mock('@/server/platform/db/client', () => ({ getDb: vi.fn() }));

import { amountBehind } from './paywall';

describe('amountBehind: how much the paywall says is behind it', () => {
  it('a post: the rounded count of its withheld text', () => {
    expect(amountBehind('post', { gatedChars: 3_172 })).toBe('残り約3,200文字（約6分）');
    expect(amountBehind('connect', { gatedChars: 40 })).toBe('残り約100文字（1分未満）');
  });

  it('an audio: its length and its transcript’s rest', () => {
    expect(amountBehind('audio', { gatedChars: 5_060, duration: 1_440 })).toBe(
      '音声 24分・書き起こし 残り約5,100文字（約10分）',
    );
    expect(amountBehind('audio', { duration: 90 })).toBe('音声 1分30秒');
  });

  it('a movie: its length', () => {
    expect(amountBehind('movie', { duration: 720 })).toBe('動画 12分');
  });

  it('nothing when there is nothing to measure', () => {
    expect(amountBehind('post', { gatedChars: 0 })).toBeNull();
    expect(amountBehind('movie', {})).toBeNull();
    expect(amountBehind('audio', {})).toBeNull();
  });
});
