import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata, gatedMetadata } from '@/components/account/metadata';
import styles from '@/components/admin/admin.module.css';
import { sectionsFor } from '@/components/admin/nav/sections';
import { ROLE_LABELS } from '@/lib/identity/user-labels';
import { requireConsoleUser } from '@/server/features/admin/content-pages';

export const generateMetadata = gatedMetadata(
  requireConsoleUser,
  accountMetadata('管理画面', '/admin'),
);

/** The editorial console's start page (staff and contributors; others see the 404 page). */
export default async function AdminPage() {
  const user = await requireConsoleUser();
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>管理画面</h1>
      <p>
        {user.name} さん（{ROLE_LABELS[user.role]}）
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
