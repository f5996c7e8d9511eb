import billing from '@/components/billing/billing.module.css';
import type { PurchaseMethod } from '@/lib/billing/purchase';
import { tipName } from '@/lib/billing/tip';
import { type TermsRow, TermsTable, cancelRow, methodsRow, priceRow } from '../../purchase-terms';

/**
 * A tip's terms on its final confirmation screen (特定商取引法 Article 12-6; decision 053 ①–⑥):
 * what it is (a tip, which buys nothing), the amount with tax, how and when it is paid, when it
 * reaches the editors, and that it cannot be cancelled once paid. The price, method and cancel
 * rows are the single article's.
 */
export function TipTerms({
  title,
  amount,
  methods,
}: {
  title: string;
  amount: number;
  methods: readonly PurchaseMethod[];
}) {
  const rows: TermsRow[] = [
    {
      label: '内容',
      body: (
        <>
          <p>{tipName(title)}</p>
          <p className={billing.small}>
            編集部への応援のお支払いです。記事の購入や有料プランのお申し込みではなく、チップで読めるようになる記事や特典はありません。
          </p>
        </>
      ),
    },
    priceRow(amount),
    methodsRow(methods, 'チップ'),
    {
      label: 'お届けの時期',
      body: (
        <p>
          お支払いの完了後すぐに（コンビニ払いはお支払いの確認後に）、メッセージとともに編集部にお届けします。領収書はアカウントページからご覧いただけます。
        </p>
      ),
    },
    cancelRow('チップの性質上、お支払い後のキャンセルはできません。'),
  ];
  return <TermsTable rows={rows} />;
}
