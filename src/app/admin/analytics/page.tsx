import Link from 'next/link';
import type { ReactNode } from 'react';
import { accountMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import local from '@/components/admin/analytics-report.module.css';
import { StaffPageTitle } from '@/components/admin/staff-list-page';
import { ViewsChart, shortDayJa } from '@/components/admin/views-chart';
import { loadAnalyticsReport, REPORT_DAYS, TOP_CONTENT_LIMIT } from '@/server/analytics/report';
import { getDb } from '@/server/db/client';
import { requireRole } from '@/server/identity/session';

export const metadata = accountMetadata('閲覧数', '/admin/analytics');
export const dynamic = 'force-dynamic';

const ENDPOINT_LABEL: Record<string, string> = {
  posts: '記事',
  audios: '音声',
  movies: '動画',
  connect: 'コネクト',
  jobs: '求人',
  categories: '特集',
};

const number = (n: number) => n.toLocaleString('ja-JP');

/** A table of the report: its caption for screen readers, its column heads, its rows. */
function ReportTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: string[];
  children: ReactNode;
}) {
  return (
    <div className={styles.tableWrap}>
      <table className={`${styles.table} ${local.numbers}`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** A row's last two cells: its views and its visitors. */
function CountCells({ views, visitors }: { views: number; visitors: number }) {
  return (
    <>
      <td>{number(views)}</td>
      <td>{number(visitors)}</td>
    </>
  );
}

export default async function AnalyticsPage() {
  await requireRole('editor', 'admin');
  const data = await loadAnalyticsReport(await getDb());
  const period = `${shortDayJa(data.from)}〜${shortDayJa(data.to)}`;
  return (
    <div className={styles.page}>
      <StaffPageTitle title="閲覧数" />
      <p>
        {`サイト内の閲覧の記録です（日付は日本時間）。ブラウザの「トラッキング拒否」や計測の停止を選んだ閲覧、ボットは含みません。直近 ${REPORT_DAYS} 日（${period}）の閲覧数は ${number(data.totalViews)} 件です。`}
      </p>

      <section aria-labelledby="per-day" className={local.section}>
        <h2 id="per-day" className={local.heading}>
          日別の閲覧数
        </h2>
        <ViewsChart days={data.days} caption={`直近 ${REPORT_DAYS} 日の日別閲覧数（${period}）`} />
        <ReportTable
          caption="日別の閲覧数と訪問者数（古い順）"
          columns={['日付', '閲覧数', '訪問者数']}
        >
          {data.days.map((d) => (
            <tr key={d.day}>
              <th scope="row">
                <time dateTime={d.day}>{shortDayJa(d.day)}</time>
              </th>
              <CountCells views={d.views} visitors={d.visitors} />
            </tr>
          ))}
        </ReportTable>
      </section>

      <section aria-labelledby="top-content" className={local.section}>
        <h2 id="top-content" className={local.heading}>
          よく読まれたコンテンツ
        </h2>
        <p>
          直近 {REPORT_DAYS} 日で閲覧数の多い順に、{TOP_CONTENT_LIMIT} 件まで表示します。
        </p>
        {data.top.length === 0 ? (
          <p className={styles.empty}>この期間のコンテンツの閲覧はまだありません。</p>
        ) : (
          <ReportTable
            caption="よく読まれたコンテンツ（閲覧数の多い順）"
            columns={['順位', 'コンテンツ', '種類', '閲覧数', '訪問者数']}
          >
            {data.top.map((item, index) => (
              <tr key={`${item.endpoint}/${item.contentId}`}>
                <td>{index + 1}</td>
                <td>
                  <Link href={item.href}>
                    {item.title ?? `${item.contentId}（タイトルを取得できません）`}
                  </Link>
                </td>
                <td>{ENDPOINT_LABEL[item.endpoint] ?? item.endpoint}</td>
                <CountCells views={item.views} visitors={item.visitors} />
              </tr>
            ))}
          </ReportTable>
        )}
      </section>
    </div>
  );
}
