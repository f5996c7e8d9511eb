import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { notFound } from 'next/navigation';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import type { RouteParamsProps } from '@/components/listing/page-params';
import styles from '@/components/billing/billing.module.css';
import screen from '@/components/billing/checkout-summary.module.css';
import { PageNotice } from '@/components/billing/page-notice';
import { PaymentMethodForm } from '@/components/billing/payment-method-form';
import { purchaseConfirmPath, purchaseStatusPath } from '@/lib/billing/purchase';
import { formatYen } from '@/lib/format';
import { purchaseOffer } from '@/server/features/billing/purchase-checkout';
import { requireUser } from '@/server/features/identity/session';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { PurchaseTerms } from '../../purchase-terms';

// The reader's own terms: never cached.
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: 'ご購入内容の確認',
  path: '/purchase/post',
  noIndex: true,
});

/**
 * The final confirmation screen (特定商取引法 Article 12-6) of a single article, before the
 * provider's checkout in payment mode (docs/decisions/053-one-time-payments.md). The price and
 * the ways to pay are the server's (purchase-checkout.ts, the same that the checkout uses); the
 * form names only the post and the method. A signed-out visitor signs in first and comes back.
 */
export default async function PurchaseConfirmPage({ params }: RouteParamsProps<'contentId'>) {
  const { contentId } = await params;
  if (!/^[A-Za-z0-9_-]{1,50}$/.test(contentId)) notFound();
  const user = await requireUser(purchaseConfirmPath(contentId));
  const [offer, flash] = await Promise.all([
    purchaseOffer(await getDb(), user, contentId),
    readFlash(),
  ]);
  const postHref = `/posts/${contentId}`;
  const error = flash?.message ?? Object.values(flash?.fieldErrors ?? {})[0] ?? null;
  if ('refused' in offer) {
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <h1 className={styles.title}>ご購入内容の確認</h1>
        <PageNotice tone="info">
          <p>{offer.refused}</p>
        </PageNotice>
        <p className={styles.backLink}>
          <Link href={postHref}>記事に戻る</Link>
        </p>
      </div>
    );
  }
  const { post, price, methods, live } = offer;
  return (
    <div className={`${styles.page} ${styles.narrow} ${screen.screen}`}>
      <h1 className={styles.title}>ご購入内容の確認</h1>
      {error ? (
        <PageNotice tone="error">
          <p>{error}</p>
        </PageNotice>
      ) : null}
      {live?.voucherUrl ? (
        <PageNotice tone="info">
          <p>
            この記事はコンビニでのお支払い待ちです。
            <Link href={purchaseStatusPath(live.id)}>お支払い番号を確認する</Link>
          </p>
        </PageNotice>
      ) : null}
      <section aria-label="ご購入" className={styles.checkoutBox}>
        <p>
          記事「{post.title}」 <strong>{formatYen(price)}</strong>（税込）
        </p>
        <PaymentMethodForm
          termsHeading="ご購入内容の詳細"
          fields={{ purchase: `post:${post.id}` }}
          methods={methods}
          submitLabel="確認して購入する（決済画面へ）"
        />
        <p className={styles.backLink}>
          <Link href={postHref}>記事に戻る</Link>
          {' ／ '}
          <Link href="/service-plans">有料プランを見る</Link>
        </p>
      </section>
      <section aria-labelledby="terms-detail" className={styles.section}>
        <h2 id="terms-detail" className={styles.sectionTitle}>
          ご購入内容の詳細
        </h2>
        <PurchaseTerms title={post.title} price={price} methods={methods} />
      </section>
    </div>
  );
}
