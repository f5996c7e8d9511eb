import { formatDateJa } from '@/lib/format';
import { GIFT_REDEEM_DAYS, type GiftOrder, deliverAtFor } from '@/lib/billing/gift-plans';
import type { PurchaseMethod } from '@/lib/billing/purchase';
import styles from '@/components/billing/billing.module.css';
import {
  type TermsRow,
  TermsTable,
  cancelRow,
  methodsRow,
  priceRow,
} from '../purchase/purchase-terms';
import gift from './gift.module.css';

/**
 * The terms of a gift on its final confirmation screen (特定商取引法 Article 12-6;
 * docs/decisions/053-one-time-payments.md ①–⑥, 054): what is bought and for whom, the price with
 * tax, how and when it is paid, when it is delivered, how long it lasts, and that it cannot be
 * cancelled once paid.
 */
export function GiftTerms({
  order,
  price,
  methods,
}: {
  order: GiftOrder;
  price: number;
  methods: readonly PurchaseMethod[];
}) {
  const deliverAt = deliverAtFor(order.deliver);
  const today = deliverAt.getTime() <= Date.now();
  const rows: TermsRow[] = [
    {
      label: '商品名',
      body: (
        <>
          <p>メンバーシップ {order.months}か月分のギフト</p>
          <p className={styles.small}>
            有料会員限定の記事・音声・動画を{order.months}
            か月間ご利用いただける権利を、下のメールアドレスの方に贈ります。一回限りの購入で、自動更新や継続的な請求はありません。
          </p>
        </>
      ),
    },
    {
      label: '贈り先',
      body: (
        <>
          <p>{order.recipient}</p>
          {order.message ? <p className={gift.card}>{order.message}</p> : null}
          <p className={styles.small}>
            受け取れるのは、このメールアドレスで登録・ログインしたアカウントだけです。
          </p>
        </>
      ),
    },
    priceRow(price),
    methodsRow(methods),
    {
      label: 'お届けの時期',
      body: (
        <p>
          {today
            ? 'お支払いの確認後すぐに'
            : `${formatDateJa(deliverAt)}の朝9時ごろ（それまでにお支払いが確認できた場合）に`}
          、受け取り用のリンクをメールでお送りします。コンビニ払いは、お支払いが確認できてからお送りします。
        </p>
      ),
    },
    {
      label: 'ご利用の期間',
      body: (
        <>
          <p>
            受け取った日から{order.months}
            か月間です。受け取った方がすでに有料プランをご利用中の場合は、次回のお支払い日が
            {order.months}か月先に延びます。
          </p>
          <p className={styles.small}>
            受け取り用のリンクは、送信から{GIFT_REDEEM_DAYS}日間有効です。
          </p>
        </>
      ),
    },
    cancelRow('デジタルコンテンツの性質上、購入後のキャンセルはできません。'),
  ];
  return <TermsTable rows={rows} />;
}
