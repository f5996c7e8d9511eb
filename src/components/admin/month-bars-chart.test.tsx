import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MonthBarsChart, shortMonthJa } from './month-bars-chart';

describe('MonthBarsChart', () => {
  it('draws one bar per month and series as a server-rendered SVG with a caption', () => {
    const html = renderToString(
      <MonthBarsChart
        months={['2026-12', '2027-01', '2027-02']}
        series={[
          { name: '新規有料', values: [0, 2, 2] },
          { name: '解約', values: [0, 0, 1] },
        ]}
        caption="月ごとの新規有料と解約"
      />,
    );
    expect(html).toContain('<figcaption');
    expect(html).toMatch(
      /<svg[^>]*role="img"[^>]*aria-label="月ごとの新規有料と解約（数値は右の表のとおり）"/,
    );
    expect(html.match(/<rect/g)).toHaveLength(6);
    expect(html).toContain('2027年1月');
    expect(html).toContain('12月');
  });

  it('names January with its year', () => {
    expect(shortMonthJa('2027-01')).toBe('2027年1月');
    expect(shortMonthJa('2027-04')).toBe('4月');
  });
});
