import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import styles from './month-bars-chart.module.css';
import { formatNumber } from '@/lib/format';

/** One series of a monthly bar chart: its name (the legend) and a value per month. */
export type MonthSeries = { name: string; values: number[] };

/** "2027-04" → "4月" (January also names its year, so a 12-month axis reads across years). */
export function shortMonthJa(month: string): string {
  const [year, m] = month.split('-');
  return Number(m) === 1 ? `${year}年1月` : `${Number(m)}月`;
}

const WIDTH = 640;
const HEIGHT = 220;
const MARGIN = { top: 12, right: 8, bottom: 28, left: 36 };

/**
 * Grouped bars per month, drawn by visx on the server as an SVG (no client JavaScript). It
 * scales to the width of a phone (viewBox); the numbers themselves are in the table beside it,
 * so the picture is one image with a caption for screen readers.
 */
export function MonthBarsChart({
  months,
  series,
  caption,
}: {
  months: string[];
  series: MonthSeries[];
  caption: string;
}) {
  const max = Math.max(1, ...series.flatMap((s) => s.values));
  const innerWidth = WIDTH - MARGIN.left - MARGIN.right;
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = scaleBand<string>({ domain: months, range: [0, innerWidth], padding: 0.25 });
  const inner = scaleBand<number>({
    domain: series.map((_, i) => i),
    range: [0, x.bandwidth()],
    padding: 0.1,
  });
  const y = scaleLinear<number>({ domain: [0, max], range: [innerHeight, 0], nice: true });
  const ticks = y.ticks(Math.min(4, max)).filter(Number.isInteger);
  return (
    <figure className={styles.chart}>
      <figcaption className={styles.caption}>{caption}</figcaption>
      <ul className={styles.legend} aria-hidden="true">
        {series.map((s, i) => (
          <li key={s.name}>
            <span className={`${styles.swatch} ${styles[`series${i}`]}`} />
            {s.name}
          </li>
        ))}
      </ul>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        className={styles.svg}
        role="img"
        aria-label={`${caption}（数値は右の表のとおり）`}
      >
        <Group left={MARGIN.left} top={MARGIN.top}>
          {ticks.map((tick) => (
            <g key={tick} transform={`translate(0, ${y(tick)})`}>
              <line x2={innerWidth} className={styles.grid} />
              <text x={-6} dy="0.32em" textAnchor="end" className={styles.tick}>
                {formatNumber(tick)}
              </text>
            </g>
          ))}
          {months.map((month) => (
            <Group key={month} left={x(month) ?? 0}>
              {series.map((s, i) => {
                const value = s.values[months.indexOf(month)] ?? 0;
                return (
                  <Bar
                    key={s.name}
                    x={inner(i) ?? 0}
                    y={y(value)}
                    width={inner.bandwidth()}
                    height={innerHeight - y(value)}
                    className={styles[`series${i}`]}
                  />
                );
              })}
              <text
                x={x.bandwidth() / 2}
                y={innerHeight + 18}
                textAnchor="middle"
                className={styles.tick}
              >
                {shortMonthJa(month)}
              </text>
            </Group>
          ))}
        </Group>
      </svg>
    </figure>
  );
}
