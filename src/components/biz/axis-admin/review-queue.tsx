import { Link } from '@/components/layout/site-link';
import styles from '@/components/biz/biz-admin.module.css';
import { formatDateTime } from '@/lib/format';
import { BizListSection } from '@/components/biz/biz-section';
import { TableHead } from '@/components/ui/table-head';

export type QueuedListing = {
  id: string;
  title: string;
  partnerId: string;
  partnerName: string;
  submittedAt: Date | null;
};

/** 審査待ちの求人, oldest submission first: each leads to its partner's page, where it is decided. */
export function ReviewQueue({ items }: { items: QueuedListing[] }) {
  return (
    <BizListSection
      id="review-queue"
      title="審査待ちの求人"
      items={items}
      unit="件"
      empty="審査待ちの求人はありません。"
    >
      <table className={styles.table}>
        <TableHead columns={['求人', 'パートナー企業', '提出日時', '操作']} />
        <tbody>
          {items.map((item) => (
            <tr key={item.id}>
              <td data-label="求人">{item.title || '（職種名なし）'}</td>
              <td data-label="パートナー企業">
                <Link href={`/biz/axis-admin/${item.partnerId}`}>{item.partnerName}</Link>
              </td>
              <td data-label="提出日時">
                {item.submittedAt ? (
                  <time dateTime={item.submittedAt.toISOString()}>
                    {formatDateTime(item.submittedAt)}
                  </time>
                ) : (
                  '—'
                )}
              </td>
              <td data-label="操作">
                <ul className={styles.actionLinks}>
                  <li>
                    <Link href={`/biz/axis-admin/${item.partnerId}#listing-${item.id}`}>
                      審査する<span className="visually-hidden">：{item.title}</span>
                    </Link>
                  </li>
                  <li>
                    <Link href={`/jobs/preview/${item.id}`} prefetch={false}>
                      プレビュー<span className="visually-hidden">：{item.title}</span>
                    </Link>
                  </li>
                </ul>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </BizListSection>
  );
}
