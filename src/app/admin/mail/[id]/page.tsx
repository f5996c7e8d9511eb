import Link from 'next/link';
import { notFound } from 'next/navigation';
import { accountMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { formatDateTime } from '@/lib/format';
import { getDb } from '@/server/db/client';
import { requireRole } from '@/server/identity/session';
import { getOutboxMail } from '@/server/mail/mailer';

export const metadata = accountMetadata('メール', '/admin/mail');

type Props = { params: Promise<{ id: string }> };

export default async function MailPage({ params }: Props) {
  await requireRole('editor', 'admin');
  const mail = await getOutboxMail(await getDb(), (await params).id);
  if (!mail) notFound();
  return (
    <div className={styles.page}>
      <p className={styles.breadcrumb}>
        <Link href="/admin">管理画面</Link> / <Link href="/admin/mail">メール送信箱</Link> / メール
      </p>
      <h1 className={styles.title}>{mail.subject}</h1>
      <dl className={styles.meta}>
        <dt>日時</dt>
        <dd>{formatDateTime(mail.createdAt)}</dd>
        <dt>宛先</dt>
        <dd>{mail.to}</dd>
        <dt>種類</dt>
        <dd>{mail.kind}</dd>
      </dl>
      <h2>テキスト</h2>
      <pre className={styles.text}>{mail.textBody}</pre>
      {mail.htmlBody ? (
        <>
          <h2>HTML</h2>
          {/* The mail's own HTML, isolated: no scripts, no same-origin access. */}
          <iframe
            title="HTML メールの表示"
            sandbox=""
            srcDoc={mail.htmlBody}
            className={styles.preview}
          />
        </>
      ) : null}
    </div>
  );
}
