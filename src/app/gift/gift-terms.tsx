import type { ReactNode } from 'react';
import { formatDateJa, formatYen } from '@/lib/format';
import { GIFT_REDEEM_DAYS, type GiftOrder, deliverAtFor } from '@/lib/billing/gift-plans';
import { KONBINI_DAYS, METHOD_LABELS, type PurchaseMethod, taxIn } from '@/lib/billing/purchase';
import styles from '@/components/billing/billing.module.css';
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
  const how: Record<PurchaseMethod, string> = {
    card: 'この次の決済画面でカード情報を入力し、その場で決済します。',
    konbini: `この次の画面で発行するお支払い番号で、発行日から${KONBINI_DAYS}日後の23:59までにコンビニでお支払いください。期限を過ぎると購入は取り消され、ギフトは送られません（料金はかかりません）。`,
    paypay: 'この次の画面で PayPay の承認を済ませた時点で決済します。',
  };
  const deliverAt = deliverAtFor(order.deliver);
  const today = deliverAt.getTime() <= Date.now();
  const rows: { label: string; body: ReactNode }[] = [
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
    {
      label: '価格（税込）',
      body: (
        <>
          <p className={styles.amount}>{formatYen(price)}</p>
          <p>うち消費税（10%） {formatYen(taxIn(price))}</p>
          <p className={styles.small}>このほかにかかる料金はありません。</p>
        </>
      ),
    },
    {
      label: '支払方法と支払時期',
      body: methods.map((method) => (
        <p key={method}>
          {METHOD_LABELS[method]}：{how[method]}
        </p>
      )),
    },
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
    {
      label: 'キャンセル',
      body: (
        <p>
          デジタルコンテンツの性質上、購入後のキャンセルはできません。お支払いの前であれば、この画面や決済画面から戻ることで取りやめられます。
        </p>
      ),
    },
  ];
  return (
    <table className={styles.termsTable}>
      <caption className="visually-hidden">ご購入内容</caption>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td>{row.body}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
