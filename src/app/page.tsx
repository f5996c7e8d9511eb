import type { Metadata } from 'next';
import Link from 'next/link';
import { env } from '@/env';
import { AREA_NAV, SERVICE_NAV, SITE_DESCRIPTION, SITE_TAGLINE } from '@/lib/site';
import styles from '@/components/home/home.module.css';

export function generateMetadata(): Metadata {
  // The home page takes the site defaults; only its title is the bare site name.
  return { title: { absolute: env().SITE_NAME } };
}

export default function HomePage() {
  return (
    <>
      <section className={styles.hero} aria-labelledby="hero-heading">
        <div className={styles.heroInner}>
          <p className={styles.kicker}>{env().SITE_NAME}</p>
          <h1 id="hero-heading" className={styles.heading}>
            {SITE_TAGLINE}
          </h1>
          <p className={styles.lead}>{SITE_DESCRIPTION}</p>
          <div className={styles.actions}>
            <Link href="/sign-up" className={styles.primary}>
              無料で会員登録
            </Link>
            <Link href="/service-plans" className={styles.secondary}>
              料金プランを見る
            </Link>
          </div>
        </div>
      </section>

      <section className={styles.section} aria-labelledby="areas-heading">
        <h2 id="areas-heading" className={styles.sectionHeading}>
          コンテンツ
        </h2>
        <ul className={styles.grid}>
          {[...AREA_NAV, ...SERVICE_NAV].map((item) => (
            <li key={item.href}>
              <Link href={item.href} className={styles.card}>
                <span className={styles.cardTitle}>{item.label}</span>
                <span className={styles.cardText}>{item.description}</span>
                <span className={styles.cardMore} aria-hidden="true">
                  →
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
