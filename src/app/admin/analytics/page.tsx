import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import type { ReactNode } from 'react';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import local from '@/components/admin/analytics-report.module.css';
import { StaffPageTitle } from '@/components/admin/staff-list-page';
import { MonthBarsChart, shortMonthJa } from '@/components/admin/month-bars-chart';
import { ViewsChart, shortDayJa } from '@/components/admin/views-chart';
import type { MonthFigures } from '@/server/features/analytics/business-figures';
import {
  type BusinessReport,
  POST_LIMIT,
  POST_SORTS,
  type PostSort,
  loadBusinessReport,
} from '@/server/features/analytics/business-report';
import {
  loadAnalyticsReport,
  REPORT_DAYS,
  TOP_CONTENT_LIMIT,
} from '@/server/features/analytics/report';
import { getDb } from '@/server/platform/db/client';
import { requireStaff } from '@/server/features/identity/session';
import { formatNumber, formatYen } from '@/lib/format';

export const generateMetadata = gatedMetadata(
  requireStaff,
  accountMetadata('分析', '/admin/analytics'),
);
export const dynamic = 'force-dynamic';

const ENDPOINT_LABEL: Record<string, string> = {
  posts: '記事',
  audios: '音声',
  movies: '動画',
  connect: 'コネクト',
  jobs: '求人',
  categories: '特集',
};

const number = formatNumber;
const EMPTY = 'まだデータがありません';

/** A table of the report: its caption for screen readers, its column heads, its rows. */
function ReportTable({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: (string | { key: string; head: ReactNode; sort?: 'descending' })[];
  children: ReactNode;
}) {
  return (
    // Wider than a phone: it scrolls sideways, so the keyboard must be able to reach it.
    <div className={styles.tableWrap} role="region" aria-label={caption} tabIndex={0}>
      <table className={`${styles.table} ${local.numbers}`}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <th key={column} scope="col">
                  {column}
                </th>
              ) : (
                <th key={column.key} scope="col" aria-sort={column.sort}>
                  {column.head}
                </th>
              ),
            )}
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

const SORT_LABEL: Record<PostSort, string> = {
  views: '閲覧数',
  memberViews: '会員の閲覧数',
  paywallViews: 'ペイウォール表示',
  signUps: '登録',
  subscriptions: '有料申し込み',
  purchases: '記事購入',
  tips: 'チップ',
  meteredReads: '無料枠での閲覧',
  meteredSubscriptions: '無料枠の後の有料申し込み',
};

const yen = formatYen;
const percent = (rate: number | null) =>
  rate === null ? '—' : `${formatNumber(Math.round(rate * 1000) / 10)}%`;

/** The headline cards: each its label and its figure, read as a list. */
function HeadlineCards({ report }: { report: BusinessReport }) {
  const { mrr, payingMembers, trials, conversion, oneTime } = report.headline;
  const cards: [string, string, string][] = [
    [
      'MRR（月間経常収益）',
      yen(mrr),
      '税込・継続する割引を差し引き、年額プランは 12 で割った月額換算',
    ],
    [
      '今月の単発の売上',
      yen(oneTime.posts + oneTime.tips + oneTime.gifts),
      `記事 ${yen(oneTime.posts)}・チップ ${yen(oneTime.tips)}・ギフト ${yen(oneTime.gifts)}（税込・返金分を除く）`,
    ],
    ['有料メンバー', `${number(payingMembers)} 人`, '支払い済みで終了していないプラン（個人）'],
    [
      '法人プランの MRR',
      yen(report.organizations.mrr),
      `${number(report.organizations.organizations)} 社・${number(report.organizations.seats)} 席（利用中 ${number(report.organizations.used)} 席）。請求中で支払いが止まっていない法人のみ。席数 × プランの月額（年額は 12 で割る）で、上の MRR・有料メンバーには含みません`,
    ],
    ['トライアル中', `${number(trials)} 人`, 'まだ支払いのないお試し期間'],
    [
      '無料 → 有料の転換率',
      percent(conversion.rate),
      `直近 12 か月の登録 ${number(conversion.signUps)} 人のうち ${number(conversion.converted)} 人が有料化`,
    ],
  ];
  return (
    <ul className={local.cards}>
      {cards.map(([label, value, note]) => (
        <li key={label} className={local.card}>
          <span className={local.cardLabel}>{label}</span>
          <strong className={local.cardValue}>{value}</strong>
          <span className={local.cardNote}>{note}</span>
        </li>
      ))}
    </ul>
  );
}

function MonthRow({ m }: { m: MonthFigures }) {
  return (
    <tr>
      <th scope="row">
        <time dateTime={m.month}>{shortMonthJa(m.month)}</time>
      </th>
      {[m.newPaying, m.churned, m.payingAtEnd, m.signUps, m.converted].map((value, i) => (
        <td key={i}>{number(value)}</td>
      ))}
      {[m.oneTime.posts, m.oneTime.tips, m.oneTime.gifts].map((value, i) => (
        <td key={`yen-${i}`}>{yen(value)}</td>
      ))}
    </tr>
  );
}

function MembersSection({ report }: { report: BusinessReport }) {
  const months = report.months.map((m) => m.month);
  const hasData = report.months.some(
    (m) =>
      m.newPaying + m.churned + m.payingAtEnd + m.signUps > 0 ||
      m.oneTime.posts + m.oneTime.tips + m.oneTime.gifts > 0,
  );
  return (
    <section aria-labelledby="members" className={local.section}>
      <h2 id="members" className={local.heading}>
        収益とメンバー
      </h2>
      <HeadlineCards report={report} />
      {hasData ? (
        <div className={local.pair}>
          <MonthBarsChart
            months={months}
            series={[
              { name: '新規有料', values: report.months.map((m) => m.newPaying) },
              { name: '解約', values: report.months.map((m) => m.churned) },
            ]}
            caption="月ごとの新規有料と解約（直近 12 か月、日本時間）"
          />
          <ReportTable
            caption="月ごとの新規有料・解約・月末の有料メンバー・登録と有料化・単発の売上（古い順）"
            columns={[
              '月',
              '新規有料',
              '解約',
              '月末の有料メンバー',
              '新規登録',
              'うち有料化',
              '記事の売上',
              'チップ',
              'ギフト',
            ]}
          >
            {report.months.map((m) => (
              <MonthRow key={m.month} m={m} />
            ))}
          </ReportTable>
        </div>
      ) : (
        <p className={styles.empty}>{EMPTY}</p>
      )}
      <p>
        <a href="/api/admin/analytics/export?table=months" download>
          月ごとの表を CSV でダウンロード
        </a>
      </p>
    </section>
  );
}

function PostsSection({
  report,
  sort,
  money,
}: {
  report: BusinessReport;
  sort: PostSort;
  /** The yen per item: admins only, as the rest of the money. */
  money: boolean;
}) {
  const columns = POST_SORTS.map((key) => ({
    key,
    sort: key === sort ? ('descending' as const) : undefined,
    head:
      key === sort ? (
        `${SORT_LABEL[key]} ▼`
      ) : (
        <Link href={`/admin/analytics?sort=${key}#posts`}>{SORT_LABEL[key]}</Link>
      ),
  }));
  return (
    <section aria-labelledby="posts" className={local.section}>
      <h2 id="posts" className={local.heading}>
        コンテンツごとの成果
      </h2>
      <p>
        {`直近 12 か月（${report.from.replaceAll('-', '/')}〜）。見出しのリンクでその列の多い順に並べ替えます（${POST_LIMIT} 件まで）。登録と有料申し込みは、その読者が最初に出会ったペイウォールのコンテンツに数えます。記事購入とチップは支払い済みのもの（返金分を除く）です。無料枠での閲覧は無料会員が毎月の無料枠で全文を読んだ回数、無料枠の後の有料申し込みは無料枠で読んでから 30 日以内に有料プランを申し込んだ読者の数です（最後に無料枠で読んだコンテンツに数えます）。`}
      </p>
      {report.posts.length === 0 ? (
        <p className={styles.empty}>{EMPTY}</p>
      ) : (
        <ReportTable
          caption={`コンテンツごとの閲覧・ペイウォール表示・登録・有料申し込み・記事購入・チップ・無料枠（${SORT_LABEL[sort]}の多い順）`}
          columns={['コンテンツ', '種類', ...columns, ...(money ? ['記事購入とチップの売上'] : [])]}
        >
          {report.posts.map((item) => (
            <tr key={`${item.endpoint}/${item.contentId}`}>
              <th scope="row">
                <Link href={item.href}>
                  {item.title ?? `${item.contentId}（タイトルを取得できません）`}
                </Link>
              </th>
              <td>{ENDPOINT_LABEL[item.endpoint] ?? item.endpoint}</td>
              {POST_SORTS.map((key) => (
                <td key={key}>
                  {key === 'tips' && item.tips > 0 ? (
                    // The tips themselves, with their messages, on the staff's tips page.
                    <Link href={`/admin/tips?post=${encodeURIComponent(item.contentId)}`}>
                      {number(item.tips)}
                    </Link>
                  ) : (
                    number(item[key])
                  )}
                </td>
              ))}
              {money ? <td>{yen(item.oneTimeRevenue)}</td> : null}
            </tr>
          ))}
        </ReportTable>
      )}
      <p>
        <a href={`/api/admin/analytics/export?table=posts&sort=${sort}`} download>
          コンテンツごとの表を CSV でダウンロード
        </a>
      </p>
    </section>
  );
}

const sortOf = (value: string | string[] | undefined): PostSort =>
  (POST_SORTS as readonly unknown[]).includes(value) ? (value as PostSort) : 'subscriptions';

export default async function AnalyticsPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const user = await requireStaff();
  const sort = sortOf((await searchParams).sort);
  const db = await getDb();
  const [data, business] = await Promise.all([
    loadAnalyticsReport(db),
    loadBusinessReport(db, { sort }),
  ]);
  const period = `${shortDayJa(data.from)}〜${shortDayJa(data.to)}`;
  return (
    <div className={styles.page}>
      <StaffPageTitle title="分析" />
      <p>
        {`サイト内の閲覧と、有料プランの記録（決済サービスから同期したもの）です（日付は日本時間）。ブラウザの「トラッキング拒否」や計測の停止を選んだ閲覧、ボットは含みません。直近 ${REPORT_DAYS} 日（${period}）の閲覧数は ${number(data.totalViews)} 件です。`}
      </p>

      {/* Money and members' counts are the business's: admins only (docs/decisions). */}
      {user.role === 'admin' ? <MembersSection report={business} /> : null}
      <PostsSection report={business} sort={sort} money={user.role === 'admin'} />

      <section aria-labelledby="per-day" className={local.section}>
        <h2 id="per-day" className={local.heading}>
          日別の閲覧数
        </h2>
        <p>訪問者数は、その日に閲覧したブラウザの数です（同じ日に何度開いても 1 と数えます）。</p>
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
          {`直近 ${REPORT_DAYS} 日で閲覧数の多い順に、${TOP_CONTENT_LIMIT} 件まで表示します。のべ訪問者数は日ごとの訪問者数の合計です（同じ人が別の日にまた読むと、その日の分も数えます）。`}
        </p>
        {data.top.length === 0 ? (
          <p className={styles.empty}>この期間のコンテンツの閲覧はまだありません。</p>
        ) : (
          <ReportTable
            caption="よく読まれたコンテンツ（閲覧数の多い順）"
            columns={['順位', 'コンテンツ', '種類', '閲覧数', 'のべ訪問者数']}
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
