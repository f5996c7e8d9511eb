import '@/styles/base';
import { StaffPageTitle } from '@/components/admin/staff-list-page';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import contactStyles from '@/components/admin/contact-messages.module.css';
import { env } from '@/env';
import { formatDateTime } from '@/lib/format';
import { listContactMessages } from '@/server/features/contact/contact';
import { getDb } from '@/server/platform/db/client';
import { requireStaff } from '@/server/features/identity/session';

export const generateMetadata = gatedMetadata(
  requireStaff,
  accountMetadata('お問い合わせ', '/admin/contact'),
);

const LIMIT = 200;

export default async function ContactMessagesPage() {
  await requireStaff();
  const messages = await listContactMessages(await getDb(), { limit: LIMIT });
  const contactTo = env().CONTACT_TO;
  return (
    <div className={styles.page}>
      <StaffPageTitle title="お問い合わせ" />
      <p>
        {contactTo
          ? `お問い合わせフォームから届いたメッセージです。届くたびに ${contactTo} にもメールで送っています。`
          : 'お問い合わせフォームから届いたメッセージです。CONTACT_TO が設定されていないため、メールでは送られません。'}
        新しい順に {LIMIT}{' '}
        件まで表示します。返信は各メッセージのメールアドレス宛てにお送りください。
      </p>
      {messages.length === 0 ? (
        <p className={styles.empty}>お問い合わせはまだありません。</p>
      ) : (
        <ol className={contactStyles.list} aria-label="お問い合わせの一覧（新しい順）">
          {messages.map((message) => (
            <li key={message.id}>
              <article className={contactStyles.item} aria-labelledby={`contact-${message.id}`}>
                <h2 id={`contact-${message.id}`} className={contactStyles.subject}>
                  {message.subject}
                </h2>
                <dl className={styles.meta}>
                  <dt>日時</dt>
                  <dd>
                    <time dateTime={message.createdAt.toISOString()}>
                      {formatDateTime(message.createdAt)}
                    </time>
                  </dd>
                  <dt>お名前</dt>
                  <dd>{message.name}</dd>
                  <dt>メール</dt>
                  <dd>
                    <a href={`mailto:${message.email}`}>{message.email}</a>
                  </dd>
                  <dt>会員</dt>
                  <dd>
                    {message.userId ? `ログイン中の会員（ID: ${message.userId}）` : '未ログイン'}
                  </dd>
                </dl>
                <p className={styles.text}>{message.message}</p>
              </article>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
