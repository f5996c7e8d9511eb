/** Formatting shared by server and client: dates in Japan time, durations. */
import { rememberLast } from './remember-last';

const dateFormat = new Intl.DateTimeFormat('ja-JP', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'Asia/Tokyo',
});

const formatDate = (date: Date) => (Number.isNaN(date.getTime()) ? '' : dateFormat.format(date));

/** The same dates come back on every render (a page's cards): Intl's formatting is slow. */
const formatDateText = rememberLast(1000, (iso) => formatDate(new Date(iso)));

/** 2026-11-21T03:00:00Z → "2026年11月21日" (the date in Japan). */
export function formatDateJa(iso: string | Date): string {
  return typeof iso === 'string' ? formatDateText(iso) : formatDate(iso);
}

const timeFormat = new Intl.DateTimeFormat('ja-JP', {
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: 'Asia/Tokyo',
});

/** 2026-11-21T03:04:00Z → "2026年11月21日 12:04" (Japan time). */
export function formatDateTime(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(date.getTime())) return '';
  return `${dateFormat.format(date)} ${timeFormat.format(date)}`;
}

/** Japan's offset from UTC: Asia/Tokyo has had no daylight saving since 1951. */
export const JAPAN_OFFSET_MS = 9 * 3_600_000;

/**
 * The clock on a wall in Japan at an instant, "YYYY-MM-DDTHH:MM:SS" ('' for an invalid date).
 * The one place that turns an instant into Japan's date: every date in a file name, a form
 * field or on a screen is cut from this, never from `toISOString()` (UTC, a day behind
 * before 09:00 in Japan).
 */
export function japanClock(at: string | number | Date): string {
  const time = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  if (Number.isNaN(time)) return '';
  return new Date(time + JAPAN_OFFSET_MS).toISOString().slice(0, 19);
}

/** The YYYY-MM-DD of a date in Japan, for <time dateTime>. */
export function isoDateJa(iso: string | number | Date): string {
  return japanClock(iso).slice(0, 10);
}

/** "20261127-0930": when a downloaded file was made, in Japan time, for its name. */
export function fileStampJa(at: Date | number): string {
  const clock = japanClock(at);
  return `${clock.slice(0, 10).replaceAll('-', '')}-${clock.slice(11, 16).replace(':', '')}`;
}

/** 3725 seconds → "1時間2分5秒"; 300 → "5分". */
export function formatDurationJa(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return [h ? `${h}時間` : '', m ? `${m}分` : '', sec || (!h && !m) ? `${sec}秒` : ''].join('');
}

const numberFormat = new Intl.NumberFormat('ja-JP');

/**
 * 12345 → "12,345", 12.5 → "12.5": what `toLocaleString('ja-JP')` writes, from one formatter.
 * `toLocaleString` with a locale builds a new ICU formatter on each call: a comment form's one
 * count took about 0.2 ms of every post page's render under load.
 */
export function formatNumber(value: number): string {
  // Whole numbers, nearly all the site shows, without ICU: the same digits and commas, and a
  // quarter of the time (ICU's formatting is slower still amid a render).
  if (!Number.isSafeInteger(value) || Object.is(value, -0)) return numberFormat.format(value);
  const digits = String(Math.abs(value));
  const head = digits.length % 3 || 3;
  let written = digits.slice(0, head);
  for (let at = head; at < digits.length; at += 3) written += `,${digits.slice(at, at + 3)}`;
  return value < 0 ? `-${written}` : written;
}

/** 1100 → "¥1,100" (yen have no minor unit). */
export function formatYen(amount: number): string {
  return `${amount < 0 ? '-' : ''}¥${formatNumber(Math.abs(amount))}`;
}

/** A plan's price as the site shows it: "¥1,100（税込）／月". */
export function formatPlanPrice(amount: number, interval: 'month' | 'year'): string {
  return `${formatYen(amount)}（税込）／${interval === 'month' ? '月' : '年'}`;
}
