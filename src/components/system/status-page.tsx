import type { ReactNode } from 'react';
import styles from '@/components/system/status-page.module.css';

/** The status pages (404, a failed render): what happened, a word on it, where to go from here. */
export function StatusPage({
  code,
  title,
  children,
  links,
}: {
  code: string;
  title: string;
  children: ReactNode;
  links: ReactNode;
}) {
  return (
    <section className={styles.page} aria-labelledby="status-heading">
      <p className={styles.code}>{code}</p>
      <h1 id="status-heading" className={styles.heading}>
        {title}
      </h1>
      <p className={styles.text}>{children}</p>
      <p className={styles.links}>{links}</p>
    </section>
  );
}

/**
 * What a failed render shows (app/error.tsx, app/global-error.tsx): try again, or go home by the
 * link the page gives; the error's number where it has one.
 */
export function ErrorScreen({
  digest,
  reset,
  home,
}: {
  digest?: string;
  reset: () => void;
  home: ReactNode;
}) {
  return (
    <StatusPage
      code="エラー"
      title="ページを表示できませんでした"
      links={
        <>
          <button type="button" className={styles.retry} onClick={() => reset()}>
            再読み込みする
          </button>
          {home}
        </>
      }
    >
      一時的な問題が発生しました。しばらくしてから、もう一度お試しください。
      {digest ? <span className={styles.digest}>エラー番号: {digest}</span> : null}
    </StatusPage>
  );
}
