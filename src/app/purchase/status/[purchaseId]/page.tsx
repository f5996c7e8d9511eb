import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { notFound, redirect } from 'next/navigation';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import type { RouteParamsProps } from '@/components/listing/page-params';
import styles from '@/components/billing/billing.module.css';
import { PageNotice } from '@/components/billing/page-notice';
import { formatDateTime, formatYen } from '@/lib/format';
import { purchaseConfirmPath, purchaseStatusPath } from '@/lib/billing/purchase';
import { tipConfirmPath, tipName } from '@/lib/billing/tip';
import { TipThanks } from '@/components/tips/tip-thanks';
import { type Purchase, purchaseOf } from '@/server/features/purchases';
import { requireUser } from '@/server/features/identity/session';
import { getDb } from '@/server/platform/db/client';

// The reader's own purchase as the ledger has it now: never cached.
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: 'ご購入の状況',
  path: '/purchase/status',
  noIndex: true,
});

/** How the page names each kind of payment, what it does once confirmed, and how to try again. */
function wordsFor(purchase: Purchase) {
  const price = `（${formatYen(purchase.amount)}、税込）`;
  if (purchase.kind === 'gift-plan') {
    return {
      title: `「${purchase.title}」${price}`,
      onceConfirmed: 'ギフトをお届けします',
      notPaid: '購入されていません',
      again: { href: '/gift', label: 'もう一度ギフトを贈る' },
    };
  }
  const tip = purchase.kind === 'tip';
  const again = !purchase.contentId
    ? null
    : tip
      ? { href: tipConfirmPath(purchase.contentId, purchase), label: 'もう一度チップを送る' }
      : { href: purchaseConfirmPath(purchase.contentId), label: 'もう一度購入する' };
  return {
    title: `${tip ? tipName(purchase.title) : `記事「${purchase.title}」`}${price}`,
    onceConfirmed: tip ? 'チップを編集部にお届けします' : '全文をお読みいただけます',
    notPaid: tip ? '送られていません' : '購入されていません',
    again,
  };
}

/**
 * The provider's success_url of a one-time payment (docs/decisions/053-one-time-payments.md): it
 * shows what the ledger says and never marks anything paid — only the provider's events do.
 * Paid: a single article goes on to the post in full, a tip thanks the reader, a gift
 * (docs/decisions/054-gift-subscriptions.md) says when it will be delivered. Waiting for the
 * event: 「お支払いを確認しています」, looked at again in a moment (a refresh that needs no
 * JavaScript). A konbini voucher: its deadline and page.
 */
export default async function PurchaseStatusPage({ params }: RouteParamsProps<'purchaseId'>) {
  const { purchaseId } = await params;
  const user = await requireUser(purchaseStatusPath(purchaseId));
  const purchase = await purchaseOf(await getDb(), user.id, purchaseId);
  if (!purchase) notFound();
  const postHref = purchase.contentId ? `/posts/${purchase.contentId}` : '/';
  const gift = purchase.kind === 'gift-plan';
  if (purchase.state === 'paid' && purchase.kind === 'post') redirect(postHref);
  if (purchase.state === 'paid' && purchase.kind === 'tip') {
    return <TipThanks tip={purchase} postHref={postHref} />;
  }
  const { title, onceConfirmed, notPaid, again } = wordsFor(purchase);
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      {purchase.state === 'pending' && !purchase.voucherUrl ? (
        <meta httpEquiv="refresh" content={`3;url=${purchaseStatusPath(purchase.id)}`} />
      ) : null}
      <h1 className={styles.title}>
        {purchase.state === 'pending'
          ? purchase.voucherUrl
            ? 'お支払い待ち'
            : 'お支払いを確認しています'
          : purchase.state === 'paid'
            ? 'ご購入ありがとうございます'
            : 'ご購入の状況'}
      </h1>
      {purchase.state === 'paid' ? (
        <PageNotice tone="info">
          <p>
            {title}
            のお支払いが完了しました。お届け日に、贈り先のメールアドレスへ受け取り用のリンクをお送りします。送信の状況はアカウントページでご確認いただけます。
          </p>
        </PageNotice>
      ) : purchase.state === 'pending' && purchase.voucherUrl ? (
        <PageNotice tone="info">
          <p>
            {title}のお支払い番号を発行しました。
            {purchase.voucherExpiresAt ? `${formatDateTime(purchase.voucherExpiresAt)}までに` : ''}
            コンビニでお支払いください。お支払いが確認でき次第、{onceConfirmed}
            。同じ内容をメールでもお送りしました。
          </p>
          <p>
            <a href={purchase.voucherUrl}>お支払い番号を表示する</a>
          </p>
        </PageNotice>
      ) : purchase.state === 'pending' ? (
        <PageNotice tone="info">
          <p>
            {title}のお支払いの確認を待っています。確認でき次第、{onceConfirmed}。
          </p>
          <p>
            <Link href={purchaseStatusPath(purchase.id)}>再読み込みする</Link>
          </p>
        </PageNotice>
      ) : (
        <PageNotice tone="error">
          <p>
            {title}は
            {purchase.state === 'refunded'
              ? '返金済みです。'
              : `お支払いの期限が過ぎたか、お支払いが完了しなかったため、${notPaid}（料金はかかっていません）。`}
          </p>
          {again && purchase.state !== 'refunded' ? (
            <p>
              <Link href={again.href}>{again.label}</Link>
            </p>
          ) : null}
        </PageNotice>
      )}
      <p className={styles.backLink}>
        {gift ? null : (
          <>
            <Link href={postHref}>記事に戻る</Link>
            {' ／ '}
          </>
        )}
        <Link href="/account">アカウント（購入履歴）</Link>
      </p>
    </div>
  );
}
