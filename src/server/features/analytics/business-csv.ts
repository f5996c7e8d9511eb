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

export function businessCsv(report: BusinessReport, table: CsvTable): string {
  if (table === 'months') {
    return csvFile(
      ['月', '新規有料', '解約', '月末の有料メンバー', '新規登録', 'うち有料化'],
      report.months.map((m) => [
        m.month,
        m.newPaying,
        m.churned,
        m.payingAtEnd,
        m.signUps,
        m.converted,
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
    ]),
  );
}

/** The file's name: the table and the day, e.g. `business-posts-2027-04-28.csv`. */
export const csvFileName = (report: BusinessReport, table: CsvTable) =>
  `business-${table}-${report.to}.csv`;
