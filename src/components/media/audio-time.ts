import { formatDurationJa } from '@/lib/format';

/** A position as a player's clock shows it: 75.9 → "1:15", 3723 → "1:02:03". */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(seconds) ? seconds : 0));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** A position as a screen reader says it well: 75.9 → "1分15秒". */
export const spokenTime = (seconds: number) =>
  formatDurationJa(Math.floor(Number.isFinite(seconds) ? seconds : 0));

/** The seek bar's aria-valuetext: "3分12秒 / 24分5秒", or the position alone when the length is unknown. */
export function positionText(current: number, duration: number | null): string {
  return duration ? `${spokenTime(current)} / ${spokenTime(duration)}` : spokenTime(current);
}

/** A new position `delta` seconds away, kept within the file. */
export function clampTime(current: number, delta: number, duration: number | null): number {
  const end = duration && Number.isFinite(duration) ? duration : Infinity;
  return Math.max(0, Math.min(end, current + delta));
}
