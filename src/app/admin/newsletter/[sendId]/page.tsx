import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import adminStyles from '@/components/admin/admin.module.css';
import { NewsletterPageTitle, SendByline } from '@/components/admin/newsletter/newsletter-step';
import { SendStatusView } from '@/components/admin/newsletter/send-status.client';
import { StaffSection } from '@/components/admin/staff-list-page';
import staff from '@/components/admin/staff.module.css';
import { formatDateTime, formatNumber } from '@/lib/format';
import {
  LETTER_COUNT_LABELS,
  OPENS_CAVEAT,
  SEGMENT_LABELS,
  newsletterPaths,
} from '@/lib/newsletter/console';
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

const n = formatNumber;
const rate = (part: number, whole: number) =>
  whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '—';

/**
 * One send: its post, segment, who asked and when, its letters by state, its opens and clicks
 * (clicks first: docs/decisions/063-newsletter-analytics.md), its subject line test, the failed
 * letters.
 */
export default async function NewsletterSendPage({ params }: Props) {
  const { send, queuedAt, finishedAt, problems, test } = await sendDetailPage(
    (await params).sendId,
  );
  const delivered = send.counts.sent + send.counts.uncertain;
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
      <StaffSection id="send-reads" title="読まれ方">
        <dl className={staff.facts}>
          <dt>{LETTER_COUNT_LABELS.clicked}</dt>
          <dd>
            {n(send.counts.clicked)} 人（クリック率 {rate(send.counts.clicked, delivered)}）
          </dd>
          <dt>{LETTER_COUNT_LABELS.opened}</dt>
          <dd>
            {n(send.counts.opened)} 人（開封率 {rate(send.counts.opened, delivered)}）
          </dd>
        </dl>
        <p className={staff.hint}>{OPENS_CAVEAT}</p>
        <p className={staff.hint}>
          計測を止めた読者のメールは数えていません。リンクの安全確認をする自動の仕組み（メールのセキュリティ製品など）のアクセスも数えていません。
        </p>
      </StaffSection>
      {test ? (
        <StaffSection id="send-subjects" title="件名テスト">
          <p className={staff.hint}>
            読者の {test.samplePercent}% に件名を均等に分けて送り、{test.waitHours} 時間後に
            {test.metric === 'clicks' ? 'クリック' : '開封'}
            の多かった件名を残りの読者に送ります
            {test.metric === 'clicks' ? '（同数なら開封の多いほう）' : ''}。
            {test.winner === null
              ? test.endsAt
                ? `結果は ${formatDateTime(test.endsAt)} に決まります。`
                : '記事の公開と同時に始まります。'
              : ''}
          </p>
          <div className={adminStyles.tableWrap}>
            <table className={adminStyles.table}>
              <caption className="visually-hidden">件名ごとの送信数・クリック・開封</caption>
              <TableHead columns={['件名', '送信', 'クリック', '開封（参考値）', '結果']} />
              <tbody>
                {test.figures.map((f) => (
                  <tr key={f.index}>
                    <td>{f.subject}</td>
                    <td>{n(f.sent)} 通</td>
                    <td>
                      {n(f.clicked)} 人（{rate(f.clicked, f.sent)}）
                    </td>
                    <td>
                      {n(f.opened)} 人（{rate(f.opened, f.sent)}）
                    </td>
                    <td>
                      {test.winner === f.index ? <strong>勝ち：残りの読者に配信</strong> : '—'}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </StaffSection>
      ) : null}
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
