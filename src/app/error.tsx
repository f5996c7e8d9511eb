'use client';

import Link from 'next/link';
import { useEffect } from 'react';
import styles from '@/components/system/status-page.module.css';

export default function ErrorPage({
  error,
  reset,
}: {
  error: Error & { digest?: string };
  reset: () => void;
}) {
  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <section className={styles.page} aria-labelledby="status-heading">
      <p className={styles.code}>エラー</p>
      <h1 id="status-heading" className={styles.heading}>
        ページを表示できませんでした
      </h1>
      <p className={styles.text}>
        一時的な問題が発生しました。しばらくしてから、もう一度お試しください。
        {error.digest ? <span className={styles.digest}>エラー番号: {error.digest}</span> : null}
      </p>
      <p className={styles.links}>
        <button type="button" className={styles.retry} onClick={() => reset()}>
          再読み込みする
        </button>
        <Link href="/">トップページへ戻る</Link>
      </p>
    </section>
  );
}
