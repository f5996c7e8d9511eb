import type { ReactNode } from 'react';
import { formatYen } from '@/lib/format';
import { KONBINI_DAYS, METHOD_LABELS, type PurchaseMethod, taxIn } from '@/lib/billing/purchase';
import styles from '@/components/billing/billing.module.css';

/**
 * The terms of a one-time payment on its final confirmation screen (特定商取引法 Article 12-6;
 * docs/decisions/053-one-time-payments.md ①–⑥), in rows each kind composes: a single article's
 * (PurchaseTerms) says what is bought, the price with tax, how and when it is paid (per method),
 * when it can be read, for how long, and that it cannot be cancelled once paid; a tip's
 * (src/app/purchase/tip) says its own what and when.
 */

/** One row of a final confirmation screen's terms. */
export type TermsRow = { label: string; body: ReactNode };

/** ② The price with tax, paid once. */
export const priceRow = (price: number): TermsRow => ({
  label: '価格（税込）',
  body: (
    <>
      <p className={styles.amount}>{formatYen(price)}</p>
      <p>うち消費税（10%） {formatYen(taxIn(price))}</p>
      <p className={styles.small}>
        一回限りのお支払いです。自動更新や継続的な請求はありません。このほかにかかる料金はありません。
      </p>
    </>
  ),
});

/** ③ How and when each offered method pays; `order` names what a lapsed voucher cancels. */
export function methodsRow(methods: readonly PurchaseMethod[], order = '購入'): TermsRow {
  const how: Record<PurchaseMethod, string> = {
    card: 'この次の決済画面でカード情報を入力し、その場で決済します。',
    konbini: `この次の画面で発行するお支払い番号で、発行日から${KONBINI_DAYS}日後の23:59までにコンビニでお支払いください。期限を過ぎると${order}は取り消されます（料金はかかりません）。`,
    paypay: 'この次の画面で PayPay の承認を済ませた時点で決済します。',
  };
  return {
    label: '支払方法と支払時期',
    body: methods.map((method) => (
      <p key={method}>
        {METHOD_LABELS[method]}：{how[method]}
      </p>
    )),
  };
}

/** ⑥ That it cannot be cancelled once paid, and how to stop before. */
export const cancelRow = (why: string): TermsRow => ({
  label: 'キャンセル',
  body: (
    <p>
      {why}
      お支払いの前であれば、この画面や決済画面から戻ることで取りやめられます。
    </p>
  ),
});

/** The terms as a table: label over value on a phone, side by side on a wide screen. */
export function TermsTable({ rows }: { rows: readonly TermsRow[] }) {
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

/** A single article's terms. */
export function PurchaseTerms({
  title,
  price,
  methods,
}: {
  title: string;
  price: number;
  methods: readonly PurchaseMethod[];
}) {
  const rows: TermsRow[] = [
    {
      label: '商品名',
      body: (
        <>
          <p>記事「{title}」の全文</p>
          <p className={styles.small}>
            1記事の単体購入です（有料プランのお申し込みではありません）。
          </p>
        </>
      ),
    },
    priceRow(price),
    methodsRow(methods),
    {
      label: 'お読みいただける時期',
      body: (
        <>
          <p>クレジットカード・PayPay：決済の完了後すぐに全文をお読みいただけます。</p>
          {methods.includes('konbini') ? (
            <p>コンビニ払い：お支払いの確認後にお読みいただけます（お支払いまでは読めません）。</p>
          ) : null}
        </>
      ),
    },
    {
      label: 'ご利用の期間',
      body: (
        <p>
          期間の定めはありません。購入した記事は、このアカウントでログインしていつでもお読みいただけます。販売期間・価格は変わることがあります。
        </p>
      ),
    },
    cancelRow('デジタルコンテンツの性質上、購入後のキャンセルはできません。'),
  ];
  return <TermsTable rows={rows} />;
}
