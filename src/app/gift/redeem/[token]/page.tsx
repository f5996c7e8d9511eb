import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import type { Metadata } from 'next';
import { Button, ButtonLink } from '@/components/ui/button';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import type { RouteParamsProps } from '@/components/listing/page-params';
import styles from '@/components/billing/billing.module.css';
import { PageNotice } from '@/components/billing/page-notice';
import { addMonths, giftRedeemPath } from '@/lib/billing/gift-plans';
import { formatDateJa } from '@/lib/format';
import { redeemRefusal } from '@/server/features/billing/gift-redeem';
import { giftByToken, giverNameOf } from '@/server/features/gift-plans';
import { getUser } from '@/server/features/identity';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import gift from '../../gift.module.css';

// A link that acts for its holder: never cached.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  ...sitePageMetadata({ title: 'ギフトの受け取り', path: '/gift/redeem', noIndex: true }),
  // The token stays on this site: no referrer to other sites (a same-origin form keeps its Origin).
  referrer: 'same-origin',
};

/**
 * The link in a gift's mail (docs/decisions/054-gift-subscriptions.md): what the gift is, from
 * whom and until when it lasts; a visitor signs in or up (no card) and comes back here; a
 * signed-in reader with the recipient's confirmed address receives it with one button (POST
 * /api/billing/gift-redeem, which checks everything again). Any other state says plainly why not.
 */
export default async function GiftRedeemPage({ params }: RouteParamsProps<'token'>) {
  const { token } = await params;
  const db = await getDb();
  const [found, user, flash] = await Promise.all([giftByToken(db, token), getUser(), readFlash()]);
  const refusal = redeemRefusal(found, user);
  const here = encodeURIComponent(giftRedeemPath(token));
  if (!found || (refusal && !user)) {
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <h1 className={styles.title}>ギフトの受け取り</h1>
        <PageNotice tone="error">
          <p>{refusal}</p>
        </PageNotice>
        <p className={styles.backLink}>
          <Link href="/">トップページへ</Link>
        </p>
      </div>
    );
  }
  const giverName = (await giverNameOf(db, found.giverId)) ?? '会員';
  const error = flash?.message ?? null;
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <header className={styles.pageHeader}>
        <h1 className={styles.title}>ギフトが届いています</h1>
        <p className={styles.lead}>
          {giverName} さんから、メンバーシップ {found.months}か月分のギフトです。
        </p>
      </header>
      {found.message ? <p className={gift.card}>{found.message}</p> : null}
      {error || refusal ? (
        <PageNotice tone="error">
          <p>{error ?? refusal}</p>
        </PageNotice>
      ) : null}
      <section aria-labelledby="gift-what" className={styles.section}>
        <h2 id="gift-what" className={styles.sectionTitle}>
          受け取ると
        </h2>
        <ul className={styles.notes}>
          <li>
            有料会員限定の記事・音声・動画を、受け取った日から{found.months}か月間（今日受け取ると
            {formatDateJa(addMonths(new Date(), found.months))}まで）ご利用いただけます。
          </li>
          <li>カードの登録は不要です。期間が終わっても自動で更新・請求されることはありません。</li>
          <li>
            すでに有料プランをご利用中の方は、次回のお支払い日が{found.months}
            か月先に延びます（その間の請求はありません）。
          </li>
          <li>
            受け取れるのは、ギフトが届いたメールアドレス（{found.recipientEmail}
            ）で登録・ログインしたアカウントだけです。
          </li>
        </ul>
      </section>
      {!user ? (
        <div className={gift.actions}>
          <ButtonLink href={`/login?next=${here}`} color="yellow" fullWidth height={52}>
            ログインして受け取る
          </ButtonLink>
          <ButtonLink href={`/sign-up?next=${here}`} color="white" fullWidth height={52}>
            無料で会員登録して受け取る
          </ButtonLink>
        </div>
      ) : refusal ? (
        <p className={styles.small}>
          {user.email} でログイン中です。
          <Link href="/account">アカウント</Link>
        </p>
      ) : (
        <form method="post" action="/api/billing/gift-redeem" className={gift.actions}>
          <input type="hidden" name="token" value={token} />
          <Button type="submit" color="yellow" fullWidth height={52}>
            ギフトを受け取る
          </Button>
          <p className={styles.small}>{user.email} のアカウントで受け取ります。</p>
        </form>
      )}
    </div>
  );
}
