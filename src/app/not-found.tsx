import type { Metadata } from 'next';
import Link from 'next/link';
import styles from '@/components/system/status-page.module.css';

export const metadata: Metadata = {
  title: 'ページが見つかりません',
  robots: { index: false },
};

export default function NotFound() {
  return (
    <section className={styles.page} aria-labelledby="status-heading">
      <p className={styles.code}>404</p>
      <h1 id="status-heading" className={styles.heading}>
        ページが見つかりません
      </h1>
      <p className={styles.text}>
        お探しのページは移動または削除されたか、URL が間違っている可能性があります。
      </p>
      <p className={styles.links}>
        <Link href="/">トップページへ戻る</Link>
        <Link href="/search">サイト内を検索する</Link>
      </p>
    </section>
  );
}
