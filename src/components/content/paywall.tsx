import Link from 'next/link';
import styles from './article.module.css';

/**
 * What a reader without access can do next (DESIGN.md "Who reads what"): sign up or sign in
 * (anonymous), or subscribe (signed in). Never shows any of the gated content.
 */
export function Paywall({
  reason,
  returnTo,
  heading,
  signUpText,
  subscribeText,
  className,
}: {
  reason: 'sign-up' | 'subscribe';
  returnTo: string;
  heading: string;
  signUpText: string;
  subscribeText: string;
  /** `paywalled` where the withheld part would stand (the Article JSON-LD points at it). */
  className?: string;
}) {
  return (
    <aside
      className={className ? `${styles.paywall} ${className}` : styles.paywall}
      aria-labelledby="paywall-heading"
    >
      <h2 id="paywall-heading" className={styles.paywallHeading}>
        {heading}
      </h2>
      <p>{reason === 'sign-up' ? signUpText : subscribeText}</p>
      <p className={styles.paywallActions}>
        {reason === 'sign-up' ? (
          <>
            <Link href="/sign-up" className={styles.primaryAction}>
              無料で会員登録
            </Link>
            <Link href={`/login?next=${encodeURIComponent(returnTo)}`}>ログイン</Link>
          </>
        ) : null}
        {/* The plans page is rendered for each viewer: nothing to gain from prefetching it. */}
        <Link
          href="/service-plans"
          prefetch={false}
          className={reason === 'subscribe' ? styles.primaryAction : undefined}
        >
          料金プランを見る
        </Link>
      </p>
    </aside>
  );
}
