import { japanClock } from '@/lib/format';

/**
 * The pure parts of the metered wall (docs/decisions/055-metered-wall.md): the month a read
 * counts in and the reader's words for the count. Pure, so pages and tests word them alike.
 */

/** The Japan-time calendar month holding `now`, as `YYYY-MM`: what a read counts in. */
export const japanMonthKey = (now: Date): string => japanClock(now).slice(0, 7);

/** What a free member's meter says on a post page: how many are allowed, left, and whether open. */
export type MeterView = {
  /** Members' posts a free member reads in full per month (the setting, > 0). */
  perMonth: number;
  /** Reads left this month after this page (for a visitor: absent). */
  left?: number;
};

/** 「今月あと2本読めます」 near the top of a metered read, or in its paywall. */
export const meterLeftText = (left: number): string =>
  left > 0 ? `今月あと${left}本読めます` : '今月読める本数をすべて使いました';

/** The used-up paywall's line: what was read and when the allowance comes back (Japan time). */
export const meterSpentText = (perMonth: number): string =>
  `今月の${perMonth}本をすべて読みました。来月1日（日本時間）に${perMonth}本読めるようになります。`;

/** The visitor's paywall line, only while the metered wall is on. */
export const meterSignUpText = (perMonth: number): string =>
  `無料の会員登録で、会員限定の記事を毎月${perMonth}本まで全文お読みいただけます。`;
