import styles from './views-chart.module.css';
import { formatNumber } from '@/lib/format';

export type ChartDay = { day: string; views: number };

/** "2026-05-03" → "5月3日" */
export function shortDayJa(day: string): string {
  const [, month, date] = day.split('-');
  return `${Number(month)}月${Number(date)}日`;
}

/**
 * Views per day as horizontal bars, one row per day so it reads on a phone. Each row carries
 * its date and number as text; the bar is decoration.
 */
export function ViewsChart({ days, caption }: { days: ChartDay[]; caption: string }) {
  const max = Math.max(1, ...days.map((d) => d.views));
  return (
    <figure className={styles.chart}>
      <figcaption className={styles.caption}>{caption}</figcaption>
      <ol className={styles.rows}>
        {days.map((d) => (
          <li key={d.day} className={styles.row}>
            <time dateTime={d.day} className={styles.day}>
              {shortDayJa(d.day)}
            </time>
            <span className={styles.track} aria-hidden="true">
              <span className={styles.bar} style={{ inlineSize: `${(d.views / max) * 100}%` }} />
            </span>
            <span className={styles.value}>{formatNumber(d.views)} 件</span>
          </li>
        ))}
      </ol>
    </figure>
  );
}
