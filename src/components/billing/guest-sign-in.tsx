import { PasswordSignInForm, SignInLinkForm } from '@/components/account/sign-in-forms';
import type { Flash } from '@/lib/http/flash';
import styles from './billing.module.css';

/**
 * The success page of a visitor's checkout paid with an address whose account must sign in
 * (src/server/features/billing/guest-checkout.ts): paying signs nobody in to an existing
 * account. Either way of signing in returns through `back` (the return route), where the plan
 * is claimed for the account of that address and the reader goes on to the article.
 */
export function GuestSignIn({
  email,
  back,
  flash,
}: {
  /** The address the checkout was paid with, masked (the URL may be anyone's). */
  email: string;
  back: string;
  flash: Flash | null;
}) {
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <h1 className={styles.title}>お支払いが完了しました</h1>
      <div role="status" className={styles.result}>
        <p>
          お申し込みはメールアドレス {email}{' '}
          で受け付けました。このアドレスのアカウントでログインすると、プランが有効になり、記事の続きをお読みいただけます。
        </p>
        <p className={styles.small}>
          このアドレスで初めてお申し込みの場合は、アカウントを作成し、ログイン用のリンクをメールでお送りしました。お支払いだけで既存のアカウントにログインすることはありません。
        </p>
      </div>
      <h2 className={styles.sectionTitle}>パスワードでログイン</h2>
      <PasswordSignInForm next={back} flash={flash} submitLabel="ログインしてプランを有効にする" />
      <h2 className={styles.sectionTitle}>メールでログイン</h2>
      <p>パスワードがない場合やお忘れの場合は、ログイン用のリンクをお送りします。</p>
      <SignInLinkForm next={back} flash={flash} submitLabel="ログインリンクを送る" />
    </div>
  );
}
