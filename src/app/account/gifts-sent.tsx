import { Link } from '@/components/layout/site-link';
import { Section } from '@/components/account/account-page';
import billing from '@/components/billing/billing.module.css';
import { purchaseStatusPath } from '@/lib/billing/purchase';
import { formatDateJa, formatYen } from '@/lib/format';
import type { SentGift } from '@/server/features/gift-plans';

/**
 * The gifts the reader has given (docs/decisions/054-gift-subscriptions.md) on the account hub:
 * to whom, how long, when bought and where each stands (支払い待ち / 送信予定（日付） / 送信済み /
 * 受け取り済み / 返金済み), with the receipts. Nothing without any.
 */
export function GiftsSent({ gifts }: { gifts: readonly SentGift[] }) {
  if (gifts.length === 0) return null;
  return (
    <Section title="贈ったギフト">
      <table className={billing.termsTable}>
        <caption className="visually-hidden">贈ったギフト</caption>
        <thead>
          <tr>
            <th scope="col">贈り先</th>
            <th scope="col">内容・状況</th>
          </tr>
        </thead>
        <tbody>
          {gifts.map((gift) => (
            <tr key={gift.purchaseId}>
              <th scope="row">{gift.recipientEmail}</th>
              <td>
                <p>
                  メンバーシップ {gift.months}か月分・{formatYen(gift.amount)}（税込）・
                  {formatDateJa(gift.createdAt)}ご購入
                </p>
                <p>
                  {gift.label}
                  {gift.label === '支払い待ち' ? (
                    <>
                      {' '}
                      <Link href={purchaseStatusPath(gift.purchaseId)} prefetch={false}>
                        状況を確認する
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
        <Link href="/gift" prefetch={false}>
          ギフトを贈る
        </Link>
        {' ／ '}
        <Link href="/account/receipts" prefetch={false}>
          領収書を見る
        </Link>
      </p>
    </Section>
  );
}
