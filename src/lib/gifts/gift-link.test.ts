import { describe, expect, it } from 'vitest';
import {
  GIFT_ALLOWANCE_SPENT,
  allowanceText,
  giftDaysLeft,
  giftTokenOf,
  giftUrl,
  hasGiftParam,
  japanMonthStart,
} from './gift-link';

const TOKEN = 'AbCdEfGhIjKlMnOpQrSt_-';

describe('gift links', () => {
  it('sees a gift parameter as the framework reads a query', () => {
    expect(hasGiftParam(`/posts/a?gift=${TOKEN}`)).toBe(true);
    expect(hasGiftParam('/posts/a?x=1&gift=')).toBe(true);
    expect(hasGiftParam('/posts/a?%67ift=x')).toBe(true);
    expect(hasGiftParam(`/posts/a?gift=${TOKEN}&_rsc=abc`)).toBe(true);
    expect(hasGiftParam('/posts/a')).toBe(false);
    expect(hasGiftParam('/posts/a?gifts=1')).toBe(false);
    expect(hasGiftParam('/posts/a#gift=1')).toBe(false);
  });

  it('takes one token of the right shape, nothing else', () => {
    expect(giftTokenOf(undefined)).toBeUndefined();
    expect(giftTokenOf(TOKEN)).toBe(TOKEN);
    for (const bad of [TOKEN.slice(1), `${TOKEN}A`, `${TOKEN}=`, 'a b', '', [TOKEN, TOKEN]])
      expect(giftTokenOf(bad)).toBeNull();
  });

  it('makes the post’s link with the token', () => {
    expect(giftUrl('https://axis.example.jp', 'p1', TOKEN)).toBe(
      `https://axis.example.jp/posts/p1?gift=${TOKEN}`,
    );
  });

  it('counts months in Japan time', () => {
    // 2026-12-01 08:59 JST is December; 2026-11-30 23:59 JST (14:59 UTC) is November.
    expect(japanMonthStart(new Date('2026-11-30T23:59:00Z')).toISOString()).toBe(
      '2026-11-30T15:00:00.000Z',
    );
    expect(japanMonthStart(new Date('2026-11-30T14:59:59Z')).toISOString()).toBe(
      '2026-10-31T15:00:00.000Z',
    );
    expect(japanMonthStart(new Date('2027-01-01T00:00:00Z')).toISOString()).toBe(
      '2026-12-31T15:00:00.000Z',
    );
  });

  it('says the days left, counted up', () => {
    const now = new Date('2026-11-10T00:00:00Z');
    const days = (n: number) => new Date(now.getTime() + n * 86_400_000);
    expect(giftDaysLeft(days(7), now)).toBe(7);
    expect(giftDaysLeft(days(6.01), now)).toBe(7);
    expect(giftDaysLeft(days(6), now)).toBe(6);
    expect(giftDaysLeft(days(0.01), now)).toBe(1);
    expect(giftDaysLeft(days(-1), now)).toBe(0);
  });

  it('words the allowance', () => {
    expect(allowanceText(3)).toBe('今月あと3本贈れます');
    expect(allowanceText(0)).toBe(GIFT_ALLOWANCE_SPENT);
  });
});
