import Link from 'next/link';
import { accountMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { sectionsFor } from '@/components/admin/nav/sections';
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
        {sectionsFor(user.role).map((section) => (
          <li key={section.href}>
            <Link href={section.href} className={styles.card}>
              <strong>{section.label}</strong>
              {section.description}
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
