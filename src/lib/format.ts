/** Formatting shared by server and client: dates in Japan time, durations. */

const dateFormat = new Intl.DateTimeFormat('ja-JP', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'Asia/Tokyo',
});

/** 2026-11-21T03:00:00Z → "2026年11月21日" (the date in Japan). */
export function formatDateJa(iso: string | Date): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  return Number.isNaN(date.getTime()) ? '' : dateFormat.format(date);
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

/** The YYYY-MM-DD of a date in Japan, for <time dateTime>. */
export function isoDateJa(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
}

/** 3725 seconds → "1時間2分5秒"; 300 → "5分". */
export function formatDurationJa(totalSeconds: number): string {
  const s = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  return [h ? `${h}時間` : '', m ? `${m}分` : '', sec || (!h && !m) ? `${sec}秒` : ''].join('');
}

/** 1100 → "¥1,100" (yen have no minor unit). */
export function formatYen(amount: number): string {
  return `${amount < 0 ? '-' : ''}¥${Math.abs(amount).toLocaleString('en-US')}`;
}

/** A plan's price as the site shows it: "¥1,100（税込）／月". */
export function formatPlanPrice(amount: number, interval: 'month' | 'year'): string {
  return `${formatYen(amount)}（税込）／${interval === 'month' ? '月' : '年'}`;
}
