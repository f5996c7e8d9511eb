import '@/styles/base';
import Link from 'next/link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { NewsletterPageTitle, SendByline } from '@/components/admin/newsletter/newsletter-step';
import { SendStatusView } from '@/components/admin/newsletter/send-status.client';
import { StaffSection } from '@/components/admin/staff-list-page';
import staff from '@/components/admin/staff.module.css';
import { formatDateTime } from '@/lib/format';
import { LETTER_COUNT_LABELS, SEGMENT_LABELS, newsletterPaths } from '@/lib/newsletter/console';
import {
  PROBLEM_LIMIT,
  sendDetailPage,
  requireNewsletterStaff,
} from '@/server/features/newsletter/console';
import { TableHead } from '@/components/ui/table-head';

type Props = { params: Promise<{ sendId: string }> };

export const generateMetadata = gatedMetadata(requireNewsletterStaff, async ({ params }: Props) =>
  accountMetadata('配信の詳細', newsletterPaths.send((await params).sendId)),
);

/** One send: its post, segment, who asked and when, its letters by state, the failed ones. */
export default async function NewsletterSendPage({ params }: Props) {
  const { send, queuedAt, finishedAt, problems } = await sendDetailPage((await params).sendId);
  return (
    <div className={adminStyles.page}>
      <NewsletterPageTitle title={`${send.title || '（削除された記事）'}の配信`} />
      <dl className={staff.facts}>
        <dt>記事</dt>
        <dd>
          {send.title ? (
            <Link href={newsletterPaths.step(send.contentId)}>{send.title}</Link>
          ) : (
            '（削除された記事）'
          )}
        </dd>
        <dt>配信先</dt>
        <dd>{SEGMENT_LABELS[send.segment]}</dd>
        <dt>依頼</dt>
        <dd>
          <SendByline send={send} />
        </dd>
        <dt>配信開始</dt>
        <dd>{queuedAt ? formatDateTime(queuedAt) : '—'}</dd>
        <dt>配信終了</dt>
        <dd>{finishedAt ? formatDateTime(finishedAt) : '—'}</dd>
      </dl>
      <StaffSection id="send-status" title="状況">
        <SendStatusView sendId={send.id} initial={send} />
      </StaffSection>
      <StaffSection
        id="send-problems"
        title={`${LETTER_COUNT_LABELS.failed}・${LETTER_COUNT_LABELS.uncertain}のメール`}
      >
        {problems.length === 0 ? (
          <p className={staff.hint}>ありません。</p>
        ) : (
          <div className={adminStyles.tableWrap}>
            <table className={adminStyles.table}>
              <caption className="visually-hidden">
                届かなかった、または届いたか分からないメール（{PROBLEM_LIMIT} 件まで）
              </caption>
              <TableHead columns={['宛先', '状態', '試行回数', '理由']} />
              <tbody>
                {problems.map((letter) => (
                  <tr key={letter.email}>
                    <td>{letter.email}</td>
                    <td>
                      {letter.status === 'failed'
                        ? LETTER_COUNT_LABELS.failed
                        : LETTER_COUNT_LABELS.uncertain}
                    </td>
                    <td>{letter.attempts}</td>
                    <td>{letter.error || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className={staff.hint}>
          送信結果不明のメールは、送信の途中でサーバーが止まったものです。二重に届くのを避けるため、自動では送り直しません。
        </p>
      </StaffSection>
    </div>
  );
}
