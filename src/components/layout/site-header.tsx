import { Link } from '@/components/layout/site-link';
import { AREA_NAV, SERVICE_NAV } from '@/lib/site';
import { AccountMenu } from './account-menu.client';
import { HeaderActionLabel } from './header-action';
import action from './header-action.module.css';
import { MobileMenu } from './mobile-menu.client';
import styles from './site-header.module.css';

export function SiteHeader({ siteName }: { siteName: string }) {
  return (
    <header className={styles.header}>
      <div className={styles.inner}>
        <Link href="/" className={styles.logo}>
          {siteName}
        </Link>
        <nav aria-label="メインメニュー" className={styles.nav}>
          <ul className={styles.navList}>
            {AREA_NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} className={styles.navLink}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className={styles.actions}>
          <Link href="/search" prefetch={false} className={action.action}>
            <HeaderActionLabel
              caption="検索"
              captionClassName={styles.searchCaption}
              icon={
                <>
                  <circle
                    cx="10.5"
                    cy="10.5"
                    r="6.5"
                    fill="none"
                    stroke="currentColor"
                    strokeWidth="2"
                  />
                  <path
                    d="m15.5 15.5 5 5"
                    stroke="currentColor"
                    strokeWidth="2"
                    strokeLinecap="round"
                  />
                </>
              }
            />
          </Link>
          <Link href="/service-plans" prefetch={false} className={styles.plansLink}>
            料金プラン
          </Link>
          <AccountMenu />
          <MobileMenu areas={AREA_NAV} services={SERVICE_NAV} />
        </div>
      </div>
    </header>
  );
}
