import Link from 'next/link';
import { accountMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { env } from '@/env';
import { formatDateTime } from '@/lib/format';
import { getDb } from '@/server/db/client';
import { requireRole } from '@/server/identity/session';
import { listOutbox } from '@/server/mail/mailer';

export const metadata = accountMetadata('メール送信箱', '/admin/mail');

const STATUS: Record<string, string> = { stored: '保管', sent: '送信済み', failed: '送信失敗' };

export default async function MailOutboxPage() {
  await requireRole('editor', 'admin');
  const mails = await listOutbox(await getDb(), { limit: 200 });
  return (
    <div className={styles.page}>
      <p className={styles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / メール送信箱
      </p>
      <h1 className={styles.title}>メール送信箱</h1>
      <p>
        {env().SMTP_URL
          ? 'SMTP で送信しています。ここには送信の記録（宛先と件名）だけが残ります。'
          : 'SMTP_URL が設定されていないため、メールは送信されずにここに保管されています。新しい順に 200 件まで表示します。'}
      </p>
      {mails.length === 0 ? (
        <p className={styles.empty}>メールはまだありません。</p>
      ) : (
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <caption className="visually-hidden">メールの一覧（新しい順）</caption>
            <thead>
              <tr>
                <th scope="col">日時</th>
                <th scope="col">宛先</th>
                <th scope="col">件名</th>
                <th scope="col">種類</th>
                <th scope="col">状態</th>
              </tr>
            </thead>
            <tbody>
              {mails.map((mail) => (
                <tr key={mail.id}>
                  <td>{formatDateTime(mail.createdAt)}</td>
                  <td>{mail.to}</td>
                  <td>
                    {mail.textBody ? (
                      <Link href={`/admin/mail/${mail.id}`}>{mail.subject}</Link>
                    ) : (
                      mail.subject
                    )}
                  </td>
                  <td>{mail.kind}</td>
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
