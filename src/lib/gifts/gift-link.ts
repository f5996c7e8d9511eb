import { JAPAN_OFFSET_MS, japanClock } from '@/lib/format';

/**
 * The pure parts of gift links (docs/decisions/037-gift-articles.md): the query parameter, the
 * token's shape, the month an allowance counts in and the days a gift has left. Pure, so the
 * front server can see a gift request without the database and the pages can word the rest.
 */

/** The query parameter of a gift link: `/posts/{id}?gift=TOKEN`. */
export const GIFT_PARAM = 'gift';

/** How long a gift opens its item. */
export const GIFT_DAYS = 7;
export const GIFT_LIFETIME_MS = GIFT_DAYS * 86_400_000;

/**
 * A token as `newGiftToken` makes it: 16 random bytes in base64url, 22 characters. Anything
 * else (truncated, extended, padded, another alphabet) is refused before a lookup.
 */
export const GIFT_TOKEN = /^[A-Za-z0-9_-]{22}$/;

/**
 * The gift parameter as the framework hands it to a page: undefined without one, the token when
 * it is one, null for anything else (two values, another shape), which opens nothing.
 */
export function giftTokenOf(value: string | string[] | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' && GIFT_TOKEN.test(value) ? value : null;
}

/**
 * Whether a request target carries a gift parameter at all, valid or not, read as the framework
 * reads a query (`%67ift=` is `gift=`): such a request is never answered from or into a shared
 * cache.
 */
export function hasGiftParam(target: string): boolean {
  const q = target.indexOf('?');
  if (q < 0) return false;
  try {
    return new URLSearchParams(target.slice(q + 1).split('#', 1)[0]).has(GIFT_PARAM);
  } catch {
    return true; // unreadable: treat as one, the safe side
  }
}

/** The gift link of a post, as a path of this site: `/posts/{id}?gift=TOKEN`. */
export function giftPath(contentId: string, token: string): string {
  return `/posts/${encodeURIComponent(contentId)}?${new URLSearchParams({ [GIFT_PARAM]: token })}`;
}

/** The gift link of a post. */
export function giftUrl(siteUrl: string, contentId: string, token: string): string {
  return new URL(giftPath(contentId, token), siteUrl).toString();
}

/** The instant the calendar month in Japan holding `now` began (00:00 JST on the 1st). */
export function japanMonthStart(now: Date): Date {
  const [year = '1970', month = '01'] = japanClock(now).split('-');
  return new Date(Date.UTC(Number(year), Number(month) - 1, 1) - JAPAN_OFFSET_MS);
}

/** Whole days a gift has left, counted up: 「あと7日」 when just made, 「あと1日」 on its last day. */
export function giftDaysLeft(expiresAt: Date, now: Date): number {
  return Math.max(0, Math.ceil((expiresAt.getTime() - now.getTime()) / 86_400_000));
}

/** 「今月あと3本贈れます」, or that none are left and when more come. */
export function allowanceText(left: number): string {
  return left > 0 ? `今月あと${left}本贈れます` : GIFT_ALLOWANCE_SPENT;
}

export const GIFT_ALLOWANCE_SPENT =
  '今月のギフトはすべて贈りました。来月1日（日本時間）からまた贈れます。';
