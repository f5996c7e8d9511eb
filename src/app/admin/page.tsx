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
      </ul>
    </div>
  );
}
