import { Link } from '@/components/layout/site-link';
import { Button } from '@/components/ui/button';
import styles from './provider-sign-in.module.css';

/**
 * The sign-in providers configured on this site (LINE, Google), each a plain form that posts
 * to /api/account/sign-in-with/{id} and goes on to the provider: no JavaScript needed. A reader
 * without an account gets one, so the consent is stated beside the buttons.
 */
export function ProviderSignIn({
  providers,
  next,
}: {
  providers: { id: string; label: string }[];
  next: string;
}) {
  if (providers.length === 0) return null;
  return (
    <div className={styles.providers}>
      {providers.map((provider) => (
        <form
          key={provider.id}
          method="post"
          action={`/api/account/sign-in-with/${provider.id}`}
          className={styles.form}
        >
          <input type="hidden" name="next" value={next} />
          <Button type="submit" color="white" fullWidth>
            {provider.label} でログイン
          </Button>
        </form>
      ))}
      <p className={styles.consent}>
        はじめての方は、このボタンで会員登録（無料）も完了します。その場合、
        <Link href="/terms">利用規約</Link>と<Link href="/terms#privacy">プライバシーポリシー</Link>
        に同意したものとします。 すでにメールアドレスで登録済みの方は、Google
        ではメールアドレスが確認済みのとき同じアカウントでログインできます。LINE
        では、先にメールアドレスでログインしてください。
      </p>
    </div>
  );
}
