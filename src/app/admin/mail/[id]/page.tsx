import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { MailKindName } from '@/components/admin/mail/mail-kind';
import { formatDateTime } from '@/lib/format';
import { getDb } from '@/server/platform/db/client';
import { clientIp } from '@/server/platform/http/request-origin';
import { requireStaff } from '@/server/features/identity/session';
import { readOutboxMail } from '@/server/platform/mail/outbox';
import type { RouteParamsProps } from '@/components/listing/page-params';

export const generateMetadata = gatedMetadata(
  requireStaff,
  accountMetadata('メール', '/admin/mail'),
);

export default async function MailPage({ params }: RouteParamsProps<'id'>) {
  const user = await requireStaff();
  const viewer = { role: user.role, actor: `user:${user.id}`, ip: clientIp(await headers()) };
  // The data function decides what of a secret mail this role may read (and audits it).
  const mail = await readOutboxMail(await getDb(), viewer, (await params).id);
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
        <dd>
          <MailKindName kind={mail.kind} />
        </dd>
        {mail.link ? (
          <>
            <dt>リンク</dt>
            <dd>
              {mail.link === 'removed' || !mail.linkExpiresAt
                ? '使用済みまたは期限切れのため削除しました'
                : `${formatDateTime(mail.linkExpiresAt)} まで有効`}
            </dd>
          </>
        ) : null}
      </dl>
      {mail.secret && mail.readable ? <p>このメールの閲覧は監査ログに記録されました。</p> : null}
      {mail.withheld ? (
        <p>
          このメールにはパスワード再設定やメールアドレス確認のリンクが含まれるため、本文は管理者だけが読めます。
        </p>
      ) : mail.text === null && mail.html === null ? (
        <p className={styles.empty}>本文は保管されていません。</p>
      ) : (
        <>
          <h2>テキスト</h2>
          <pre className={styles.text}>{mail.text}</pre>
          {mail.html ? (
            <>
              <h2>HTML</h2>
              {/* The mail's own HTML, isolated: no scripts, no same-origin access. */}
              <iframe
                title="HTML メールの表示"
                sandbox=""
                srcDoc={mail.html}
                className={styles.preview}
              />
            </>
          ) : null}
        </>
      )}
    </div>
  );
}
