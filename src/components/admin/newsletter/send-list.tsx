import { Link } from '@/components/layout/site-link';
import adminStyles from '@/components/admin/admin.module.css';
import { StaffList } from '@/components/admin/staff-list-page';
import {
  SEGMENT_LABELS,
  SEND_STATUS_LABELS,
  type SendView,
  newsletterPaths,
  totalLetters,
} from '@/lib/newsletter/console';
import { SendByline } from './newsletter-step';
import { TableHead } from '@/components/ui/table-head';
import { formatNumber } from '@/lib/format';

const n = formatNumber;

/** /admin/newsletter: the newest sends, each with its post, segment, who and when, and counts. */
export function SendList({ sends }: { sends: readonly SendView[] }) {
  return (
    <StaffList
      count={`${n(sends.length)} 件の配信（新しい順）`}
      empty={
        sends.length
          ? null
          : 'まだ配信はありません。記事の編集画面の「メールで配信」から配信できます。'
      }
    >
      <div className={adminStyles.tableWrap}>
        <table className={adminStyles.table}>
          <caption className="visually-hidden">ニュースレターの配信（新しい順）</caption>
          <TableHead
            columns={[
              '記事',
              '配信先',
              '依頼',
              '状態',
              '通数',
              '送信済み',
              '失敗・不明',
              'クリックした読者',
              '開封（参考値）',
            ]}
          />
          <tbody>
            {sends.map((send) => (
              <tr key={send.id}>
                <td>
                  <Link href={newsletterPaths.send(send.id)}>
                    {send.title || '（削除された記事）'}
                  </Link>
                </td>
                <td>{SEGMENT_LABELS[send.segment]}</td>
                <td>
                  <SendByline send={send} />
                </td>
                <td>{SEND_STATUS_LABELS[send.status]}</td>
                <td>{n(totalLetters(send.counts))}</td>
                <td>{n(send.counts.sent)}</td>
                <td>{n(send.counts.failed + send.counts.uncertain)}</td>
                <td>{n(send.counts.clicked)}</td>
                <td>{n(send.counts.opened)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </StaffList>
  );
}
