import { Link } from '@/components/layout/site-link';
import { AnalyticsOptOut } from '@/components/analytics/analytics-opt-out.client';
import { AREA_NAV, INFO_NAV, SERVICE_NAV } from '@/lib/site';
import { NewsletterSubscribeForm } from '@/components/newsletter/subscribe-form';
import { ThemeSwitch } from '@/components/theme/theme-switch.client';
import styles from './site-footer.module.css';

const SECTIONS = [
  { heading: 'コンテンツ', items: AREA_NAV },
  { heading: 'サービス', items: SERVICE_NAV },
  { heading: 'インフォメーション', items: INFO_NAV },
] as const;

export function SiteFooter({ siteName }: { siteName: string }) {
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <p className={styles.name}>{siteName}</p>
        <NewsletterSubscribeForm />
        <nav id="site-map" aria-label="サイトマップ" className={styles.columns}>
          {SECTIONS.map((section) => (
            <div key={section.heading}>
              <h2 className={styles.heading}>{section.heading}</h2>
              <ul className={styles.list}>
                {section.items.map((item) => (
                  <li key={item.href}>
                    <Link href={item.href}>{item.label}</Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <ThemeSwitch />
        <AnalyticsOptOut />
        <p className={styles.copyright}>
          <small>© {siteName}</small>
        </p>
      </div>
    </footer>
  );
}
