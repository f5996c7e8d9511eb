import 'server-only';
import { csvFile } from '@/lib/csv';
import type { BusinessReport } from './business-report';

/**
 * The report's tables as CSV files, the same numbers as the page's tables, through the same
 * writer as the subscriber export (src/lib/csv.ts: formulas escaped, since titles are text
 * anyone on the staff may have typed).
 */

export const CSV_TABLES = ['months', 'posts'] as const;
export type CsvTable = (typeof CSV_TABLES)[number];

/**
 * `money`: the per-item table's yen column, for admins only (as on the page); the monthly
 * table is for admins alone anyway (business-csv-route.ts).
 */
export function businessCsv(
  report: BusinessReport,
  table: CsvTable,
  { money }: { money: boolean },
): string {
  if (table === 'months') {
    return csvFile(
      [
        '月',
        '新規有料',
        '解約',
        '月末の有料メンバー',
        '新規登録',
        'うち有料化',
        '記事の売上（円）',
        'チップ（円）',
        'ギフト（円）',
      ],
      report.months.map((m) => [
        m.month,
        m.newPaying,
        m.churned,
        m.payingAtEnd,
        m.signUps,
        m.converted,
        m.oneTime.posts,
        m.oneTime.tips,
        m.oneTime.gifts,
      ]),
    );
  }
  return csvFile(
    [
      '種類',
      'ID',
      'タイトル',
      'URL',
      '閲覧数',
      '会員の閲覧数',
      'ペイウォール表示',
      '登録',
      '有料申し込み',
      '記事購入',
      'チップ',
      '無料枠での閲覧',
      '無料枠の後の有料申し込み',
      ...(money ? ['記事購入とチップの売上（円）'] : []),
    ],
    report.posts.map((p) => [
      p.endpoint,
      p.contentId,
      p.title ?? '',
      p.href,
      p.views,
      p.memberViews,
      p.paywallViews,
      p.signUps,
      p.subscriptions,
      p.purchases,
      p.tips,
      p.meteredReads,
      p.meteredSubscriptions,
      ...(money ? [p.oneTimeRevenue] : []),
    ]),
  );
}

/** The file's name: the table and the day, e.g. `business-posts-2027-04-28.csv`. */
export const csvFileName = (report: BusinessReport, table: CsvTable) =>
  `business-${table}-${report.to}.csv`;
