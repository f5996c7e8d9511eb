import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import styles from '@/components/billing/billing.module.css';
import { PageNotice } from '@/components/billing/page-notice';
import { giftPrices } from '@/server/features/billing/gift-checkout';
import { getUser } from '@/server/features/identity';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { GiftForm, type GiftFormValues } from './gift-form';

// Prices are the catalogue's and the flash is this view's: rendered per request.
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: 'メンバーシップをギフトで贈る',
  description:
    'メンバーシップの1か月・3か月・12か月分を、メールアドレスを指定して贈れます。自動更新はありません。',
  path: '/gift',
});

const text = (value: string | string[] | undefined) =>
  typeof value === 'string' ? value : undefined;

/**
 * /gift: the order form of a gift subscription (docs/decisions/054-gift-subscriptions.md). Anyone
 * may read it; buying needs an account (a free one is enough), so a visitor is offered ログイン
 * and 会員登録, each coming back here. The form's values may come back in the query (「内容を
 * 変更する」 on the confirmation screen) or in the flash of a refused checkout.
 */
export default async function GiftPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const [query, user, flash, prices] = await Promise.all([
    searchParams,
    getUser(),
    readFlash(),
    getDb().then(giftPrices),
  ]);
  const values: GiftFormValues = {
    months: text(query.months) ?? text(flash?.values.months),
    recipient: text(query.recipient) ?? text(flash?.values.recipient),
    message: text(query.message) ?? text(flash?.values.message),
    deliver: text(query.deliver) ?? text(flash?.values.deliver),
  };
  const error = flash?.message ?? null;
  const back = encodeURIComponent('/gift');
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <header className={styles.pageHeader}>
        <h1 className={styles.title}>メンバーシップをギフトで贈る</h1>
        <p className={styles.lead}>
          有料会員限定の記事・音声・動画を楽しめるメンバーシップを、1か月・3か月・12か月分贈れます。受け取った方はカードの登録なしで使い始められ、期間が終わっても自動で更新・請求されることはありません。
        </p>
      </header>
      {error ? (
        <PageNotice tone="error">
          <p>{error}</p>
        </PageNotice>
      ) : null}
      {user ? null : (
        <PageNotice tone="info">
          <p>
            ギフトのご購入には、ログインが必要です（無料会員で購入できます）。
            <Link href={`/login?next=${back}`}>ログイン</Link>
            {' ／ '}
            <Link href={`/sign-up?next=${back}`}>無料で会員登録</Link>
          </p>
        </PageNotice>
      )}
      {prices.length > 0 ? (
        <GiftForm prices={prices} values={values} errors={{}} />
      ) : (
        <PageNotice tone="info">
          <p>ギフトは現在お申し込みいただけません。</p>
        </PageNotice>
      )}
      <p className={styles.small}>
        受け取った方がすでに有料プランをご利用中の場合は、次回のお支払い日が贈った期間だけ先に延びます。ギフトの購入後のキャンセルはできません。
        <Link href="/specified-commercial-transactions">特定商取引法に基づく表記</Link>
      </p>
    </div>
  );
}
