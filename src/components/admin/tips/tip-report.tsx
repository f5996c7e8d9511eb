import type { ReactNode } from 'react';
import { Link } from '@/components/layout/site-link';
import adminStyles from '@/components/admin/admin.module.css';
import { StaffSection } from '@/components/admin/staff-list-page';
import { METHOD_LABELS } from '@/lib/billing/purchase';
import { formatDateTime, formatYen, formatNumber } from '@/lib/format';
import type { PaidTip, TipTotal } from '@/server/features/purchases';
import styles from './tip-report.module.css';

/** A deleted account's tip stays, anonymised; a reader is named by their public display name. */
export const ANONYMOUS_READER = '匿名の読者';

const tipsOf = (contentId: string) => `/admin/tips?post=${encodeURIComponent(contentId)}`;

/** A wide table in a region the keyboard can scroll sideways on a phone. */
function Table({
  caption,
  columns,
  children,
}: {
  caption: string;
  columns: string[];
  children: ReactNode;
}) {
  return (
    <div className={adminStyles.tableWrap} role="region" aria-label={caption} tabIndex={0}>
      <table className={adminStyles.table}>
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

/** The totals per post, largest first; each links to that post's tips and to the post. */
export function TipTotals({ totals }: { totals: readonly TipTotal[] }) {
  const all = totals.reduce((sum, t) => sum + t.amount, 0);
  const count = totals.reduce((sum, t) => sum + t.count, 0);
  return (
    <StaffSection id="tip-totals" title="記事ごとの合計">
      <p>
        合計 {formatYen(all)}（{formatNumber(count)}件）
      </p>
      <Table caption="記事ごとのチップの合計" columns={['記事', '件数', '合計（税込）']}>
        {totals.map((total) => (
          <tr key={total.contentId}>
            <td className={styles.post}>
              <Link href={tipsOf(total.contentId)}>{total.title}</Link>{' '}
              <Link href={`/posts/${total.contentId}`} className={styles.postLink}>
                （記事を開く）
              </Link>
            </td>
            <td className={styles.number}>{formatNumber(total.count)}</td>
            <td className={styles.number}>{formatYen(total.amount)}</td>
          </tr>
        ))}
      </Table>
    </StaffSection>
  );
}

/** The paid tips, newest first: when, for which post, how much, how paid, who, and the message. */
export function TipList({ tips, limit }: { tips: readonly PaidTip[]; limit: number }) {
  return (
    <StaffSection id="tip-list" title={`届いたチップ（新しい順に${limit}件まで）`}>
      <Table
        caption="届いたチップ"
        columns={['日時', '記事', '金額（税込）', 'お支払い方法', '読者', 'メッセージ']}
      >
        {tips.map((tip) => (
          <tr key={tip.id}>
            <td className={styles.nowrap}>
              {tip.paidAt ? (
                <time dateTime={tip.paidAt.toISOString()}>{formatDateTime(tip.paidAt)}</time>
              ) : null}
            </td>
            <td className={styles.post}>
              {tip.contentId ? (
                <Link href={`/posts/${tip.contentId}`}>{tip.title}</Link>
              ) : (
                tip.title
              )}
            </td>
            <td className={styles.number}>{formatYen(tip.amount)}</td>
            <td className={styles.nowrap}>{METHOD_LABELS[tip.method]}</td>
            <td className={styles.reader}>{tip.payerName ?? ANONYMOUS_READER}</td>
            <td className={styles.message}>
              {tip.message ?? <span className={adminStyles.empty}>（なし）</span>}
            </td>
          </tr>
        ))}
      </Table>
    </StaffSection>
  );
}
