'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import styles from './admin-nav.module.css';

export type AdminNavLink = { href: string; label: string };

/**
 * The console's navigation. A client island only for the current page's mark: the layout
 * that renders it stays mounted while its pages change.
 */
export function AdminNav({ links }: { links: readonly AdminNavLink[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="管理画面" className={styles.nav}>
      <ul className={styles.list}>
        {links.map(({ href, label }) => {
          const current = currentness(pathname, href);
          return (
            <li key={href}>
              <Link href={href} className={styles.link} aria-current={current}>
                {label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** "page" on the screen itself, true within it (a mail of the outbox), else nothing. */
function currentness(pathname: string, href: string): 'page' | true | undefined {
  if (pathname === href) return 'page';
  // The start page contains every other screen's path: only itself is it.
  if (href !== '/admin' && pathname.startsWith(`${href}/`)) return true;
  return undefined;
}
