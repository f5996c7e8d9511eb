import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { StaffPageTitle } from '@/components/admin/staff-list-page';
import { headers } from 'next/headers';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { MailKindName } from '@/components/admin/mail/mail-kind';
import { env } from '@/env';
import { formatDateTime } from '@/lib/format';
import { getDb } from '@/server/platform/db/client';
import { clientIp } from '@/server/platform/http/request-origin';
import { requireStaff } from '@/server/features/identity/session';
import {
  type OutboxEntry,
  listOutboxMails,
  mayReadSecretMail,
} from '@/server/platform/mail/outbox';
import { TableHead } from '@/components/ui/table-head';

export const generateMetadata = gatedMetadata(
  requireStaff,
  accountMetadata('メール送信箱', '/admin/mail'),
);

const STATUS: Record<string, string> = { stored: '保管', sent: '送信済み', failed: '送信失敗' };

function linkState(mail: OutboxEntry): string {
  if (!mail.secret || (!mail.readable && !mail.withheld)) return '';
  if (mail.link === 'removed') return '（リンクは使用済みまたは期限切れのため削除済み）';
  return mail.withheld
    ? '（リンクを含むため本文は管理者のみ）'
    : '（リンクを含む。開くと監査ログに記録）';
}

export default async function MailOutboxPage() {
  const user = await requireStaff();
  const viewer = { role: user.role, actor: `user:${user.id}`, ip: clientIp(await headers()) };
  const mails = await listOutboxMails(await getDb(), viewer, { limit: 200 });
  return (
    <div className={styles.page}>
      <StaffPageTitle title="メール送信箱" />
      <p>
        {env().SMTP_URL
          ? 'SMTP で送信しています。ここには送信の記録（宛先と件名）だけが残ります。'
          : 'SMTP_URL が設定されていないため、メールは送信されずにここに保管されています。新しい順に 200 件まで表示します。'}
      </p>
      <p>
        {mayReadSecretMail(user.role)
          ? 'パスワード再設定やメールアドレス確認のリンクを含むメールを開くと、監査ログに記録されます。リンクは使用済みまたは期限切れになると削除されます。'
          : 'パスワード再設定やメールアドレス確認のリンクを含むメールの本文は、管理者だけが読めます。'}
      </p>
      {mails.length === 0 ? (
        <p className={styles.empty}>メールはまだありません。</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">メールの一覧（新しい順）</caption>
            <TableHead columns={['日時', '宛先', '件名', '種類', '状態']} />
            <tbody>
              {mails.map((mail) => (
                <tr key={mail.id}>
                  <td>{formatDateTime(mail.createdAt)}</td>
                  <td>{mail.to}</td>
                  <td>
                    {mail.readable ? (
                      // No prefetch: opening a secret mail is audited, listing it is not.
                      <Link href={`/admin/mail/${mail.id}`} prefetch={false}>
                        {mail.subject}
                      </Link>
                    ) : (
                      mail.subject
                    )}
                    {linkState(mail)}
                  </td>
                  <td>
                    <MailKindName kind={mail.kind} />
                  </td>
                  <td>{STATUS[mail.status] ?? mail.status}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
