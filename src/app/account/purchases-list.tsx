import { Link } from '@/components/layout/site-link';
import { Section } from '@/components/account/account-page';
import billing from '@/components/billing/billing.module.css';
import { METHOD_LABELS, purchaseStateLabel, purchaseStatusPath } from '@/lib/billing/purchase';
import { formatDateJa, formatYen } from '@/lib/format';
import { tipName } from '@/lib/billing/tip';
import type { Purchase } from '@/server/features/purchases';

/**
 * The reader's single articles and tips (docs/decisions/053-one-time-payments.md) on the account hub:
 * what, when, how much, how paid and where it stands (支払い済み / お支払い待ち（期限 …） /
 * 期限切れ / 返金済み), with the post, a waiting voucher, and the receipts. Nothing without any.
 */
export function PurchasesList({ purchases }: { purchases: readonly Purchase[] }) {
  if (purchases.length === 0) return null;
  return (
    <Section title="購入した記事・チップ">
      <table className={billing.termsTable}>
        <caption className="visually-hidden">購入した記事・チップ</caption>
        <thead>
          <tr>
            <th scope="col">内容</th>
            <th scope="col">ご購入日・金額・お支払い方法</th>
          </tr>
        </thead>
        <tbody>
          {purchases.map((purchase) => (
            <tr key={purchase.id}>
              <th scope="row">
                {purchase.contentId ? (
                  <Link href={`/posts/${purchase.contentId}`} prefetch={false}>
                    {purchase.kind === 'tip' ? tipName(purchase.title) : purchase.title}
                  </Link>
                ) : (
                  purchase.title
                )}
              </th>
              <td>
                <p>
                  {formatDateJa(purchase.createdAt)}・{formatYen(purchase.amount)}（税込）・
                  {METHOD_LABELS[purchase.method]}
                </p>
                <p>
                  {purchaseStateLabel(purchase)}
                  {purchase.state === 'pending' ? (
                    <>
                      {' '}
                      <Link href={purchaseStatusPath(purchase.id)} prefetch={false}>
                        {purchase.voucherUrl ? 'お支払い番号を確認する' : '状況を確認する'}
                      </Link>
                    </>
                  ) : null}
                </p>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <Link href="/account/receipts" prefetch={false}>
          領収書を見る
        </Link>
      </p>
    </Section>
  );
}
