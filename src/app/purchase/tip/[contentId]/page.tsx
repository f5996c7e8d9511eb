import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { notFound } from 'next/navigation';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import type { RouteParamsProps, SearchParamsProps } from '@/components/listing/page-params';
import styles from '@/components/billing/billing.module.css';
import screen from '@/components/billing/checkout-summary.module.css';
import { PageNotice } from '@/components/billing/page-notice';
import { PaymentMethodForm } from '@/components/billing/payment-method-form';
import { TipForm } from '@/components/tips/tip-form';
import tips from '@/components/tips/tips.module.css';
import { env } from '@/env';
import { TIP_POST_ID, readTipQuery, tipConfirmPath, tipName } from '@/lib/billing/tip';
import { formatYen } from '@/lib/format';
import { safeNextPath } from '@/lib/safe-next';
import { tipOffer } from '@/server/features/billing/tip-checkout';
import { requireUser } from '@/server/features/identity/session';
import { readFlash } from '@/server/platform/http/read-flash';
import { TipTerms } from './tip-terms';

// The reader's own choice: never cached.
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: 'チップの内容の確認',
  path: '/purchase/tip',
  noIndex: true,
});

/**
 * Where a visitor comes back to after signing in or up: this screen with their choice, or with
 * the amount alone when the message cannot travel in a `next` (a line break, past its length).
 */
function returnPath(contentId: string, query: Record<string, string | string[] | undefined>) {
  const read = readTipQuery(query);
  const amount = read.ok ? read.amount : undefined;
  const full = tipConfirmPath(contentId, { amount, message: read.ok ? read.message : null });
  return safeNextPath(full, env().SITE_URL) === full ? full : tipConfirmPath(contentId, { amount });
}

/**
 * The final confirmation screen (特定商取引法 Article 12-6) of a tip for a post, before the
 * provider's checkout in payment mode (docs/decisions/053-one-time-payments.md): what it is, the
 * amount with tax, how and when it is paid, that it cannot be cancelled, the message shown back,
 * and the form to change them. The tip block's GET form lands here; a signed-out visitor signs in
 * first and comes back. The amount is validated here as the endpoint validates it (tip.ts).
 */
export default async function TipConfirmPage({
  params,
  searchParams,
}: RouteParamsProps<'contentId'> & SearchParamsProps) {
  const { contentId } = await params;
  if (!TIP_POST_ID.test(contentId)) notFound();
  const query = await searchParams;
  await requireUser(returnPath(contentId, query));
  const read = readTipQuery(query);
  const [offer, flash] = await Promise.all([
    tipOffer(contentId, read.ok ? read.amount : 0),
    readFlash(),
  ]);
  const postHref = `/posts/${contentId}`;
  const back = (
    <p className={styles.backLink}>
      <Link href={`${postHref}#tip`}>記事に戻る</Link>
    </p>
  );
  if ('refused' in offer) {
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <h1 className={styles.title}>チップの内容の確認</h1>
        <PageNotice tone="info">
          <p>{offer.refused}</p>
        </PageNotice>
        {back}
      </div>
    );
  }
  const { post, methods } = offer;
  if (!read.ok) {
    // Out of range, not whole yen, a message too long: said, with the form to put it right.
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <h1 className={styles.title}>チップの内容の確認</h1>
        <p>記事「{post.title}」へのチップ</p>
        <TipForm
          contentId={post.id}
          values={{ amount: read.amount, message: read.message }}
          error={read.amount || read.message ? read.error : null}
        />
        {back}
      </div>
    );
  }
  const { amount, message } = read;
  const error = flash?.message ?? Object.values(flash?.fieldErrors ?? {})[0] ?? null;
  return (
    <div className={`${styles.page} ${styles.narrow} ${screen.screen}`}>
      <h1 className={styles.title}>チップの内容の確認</h1>
      {error ? (
        <PageNotice tone="error">
          <p>{error}</p>
        </PageNotice>
      ) : null}
      <section aria-label="チップ" className={styles.checkoutBox}>
        <p>
          {tipName(post.title)} <strong>{formatYen(amount)}</strong>（税込）
        </p>
        {message ? (
          <div>
            <p className={styles.small}>編集部へのメッセージ</p>
            <p className={tips.quote}>{message}</p>
          </div>
        ) : null}
        <PaymentMethodForm
          termsHeading="チップの内容の詳細"
          fields={{ purchase: 'tip', post: post.id, amount, message }}
          methods={methods}
          submitLabel="確認してチップを送る（決済画面へ）"
        />
        <p className={styles.backLink}>
          <a href="#tip-change">金額・メッセージを変更する</a>
          {' ／ '}
          <Link href={postHref}>記事に戻る</Link>
        </p>
      </section>
      <section aria-labelledby="terms-detail" className={styles.section}>
        <h2 id="terms-detail" className={styles.sectionTitle}>
          チップの内容の詳細
        </h2>
        <TipTerms title={post.title} amount={amount} methods={methods} />
      </section>
      <section id="tip-change" aria-labelledby="tip-change-heading" className={styles.section}>
        <h2 id="tip-change-heading" className={styles.sectionTitle}>
          金額・メッセージを変更する
        </h2>
        <TipForm contentId={post.id} values={{ amount: String(amount), message: message ?? '' }} />
      </section>
    </div>
  );
}
