import Link from 'next/link';
import { accountMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { requireRole } from '@/server/identity/session';

export const metadata = accountMetadata('管理画面', '/admin');

/** The editorial console's start page (staff only; others see the 404 page). */
export default async function AdminPage() {
  const user = await requireRole('editor', 'admin');
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>管理画面</h1>
      <p>
        {user.name} さん（{user.role === 'admin' ? '管理者' : '編集者'}）
      </p>
      <ul className={styles.cards}>
        <li>
          <Link href="/admin/mail" className={styles.card}>
            <strong>メール送信箱</strong>
            SMTP を設定していないときに送られたメール（確認・再設定のリンクなど）を読む
          </Link>
        </li>
        <li>
          <Link href="/admin/contact" className={styles.card}>
            <strong>お問い合わせ</strong>
            お問い合わせフォームから届いたメッセージを新しい順に読む
          </Link>
        </li>
        <li>
          <Link href="/biz/axis-admin" className={styles.card}>
            <strong>パートナープログラム</strong>
            パートナー企業と契約、求人の審査、企業からの申し込み・問い合わせ
          </Link>
        </li>
        <li>
          <Link href="/admin/analytics" className={styles.card}>
            <strong>閲覧数</strong>
            日ごとの閲覧数と、よく読まれているコンテンツ（過去 30 日）
          </Link>
        </li>
      </ul>
    </div>
  );
}
