'use client';

import './globals.css';
import styles from '@/components/system/status-page.module.css';

/** Replaces the root layout when it fails itself, so it brings its own <html>. */
export default function GlobalError({
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  return (
    <html lang="ja">
      <body>
        <main id="main">
          <section className={styles.page} aria-labelledby="status-heading">
            <p className={styles.code}>エラー</p>
            <h1 id="status-heading" className={styles.heading}>
              ページを表示できませんでした
            </h1>
            <p className={styles.text}>
              一時的な問題が発生しました。しばらくしてから、もう一度お試しください。
            </p>
            <p className={styles.links}>
              <button type="button" className={styles.retry} onClick={() => reset()}>
                再読み込みする
              </button>
              {/* A full page load: the root layout itself failed, so client navigation may too. */}
              {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
              <a href="/">トップページへ戻る</a>
            </p>
          </section>
        </main>
      </body>
    </html>
  );
}
