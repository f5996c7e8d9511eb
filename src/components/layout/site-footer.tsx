import Link from 'next/link';
import { AREA_NAV, INFO_NAV, SERVICE_NAV } from '@/lib/site';
import styles from './site-footer.module.css';

export function SiteFooter({ siteName }: { siteName: string }) {
  return (
    <footer className={styles.footer}>
      <div className={styles.inner}>
        <p className={styles.name}>{siteName}</p>
        <nav id="site-map" aria-label="サイトマップ" className={styles.columns}>
          <div>
            <h2 className={styles.heading}>コンテンツ</h2>
            <ul className={styles.list}>
              {AREA_NAV.map((item) => (
                <li key={item.href}>
                  <Link href={item.href}>{item.label}</Link>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2 className={styles.heading}>サービス</h2>
            <ul className={styles.list}>
              {SERVICE_NAV.map((item) => (
                <li key={item.href}>
                  <Link href={item.href}>{item.label}</Link>
                </li>
              ))}
            </ul>
          </div>
          <div>
            <h2 className={styles.heading}>インフォメーション</h2>
            <ul className={styles.list}>
              {INFO_NAV.map((item) => (
                <li key={item.href}>
                  <Link href={item.href}>{item.label}</Link>
                </li>
              ))}
            </ul>
          </div>
        </nav>
        <p className={styles.copyright}>
          <small>© {siteName}</small>
        </p>
      </div>
    </footer>
  );
}
