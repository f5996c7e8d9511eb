import '@/styles/base';
import type { ReactNode } from 'react';
import { AdminNav } from '@/components/admin/nav/admin-nav.client';
import { ADMIN_HOME, sectionsFor } from '@/components/admin/nav/sections';
import { can } from '@/lib/access/console-permissions';
import { getUser } from '@/server/features/identity/session';
import styles from '@/components/admin/staff.module.css';

/**
 * The console's frame: its navigation, for whoever the console lets in, with the admin screens only for an
 * admin (an editor's page never carries their links). Not an access check: each page checks
 * its viewer itself, and anyone else gets the page's 404 without this navigation.
 */
export default async function AdminLayout({ children }: { children: ReactNode }) {
  const user = await getUser();
  if (!user || !can(user.role, 'console')) return children;
  const links = [
    { href: ADMIN_HOME, label: 'トップ' },
    ...sectionsFor(user.role).map(({ href, label }) => ({ href, label })),
  ];
  return (
    <div className={styles.console}>
      <AdminNav links={links} />
      {children}
    </div>
  );
}
