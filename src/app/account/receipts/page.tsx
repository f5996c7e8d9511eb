import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { accountMetadata } from '@/components/account/metadata';
import { ReceiptList } from '@/components/billing/receipt-view';
import { toReceiptView } from '@/components/billing/views';
import styles from '@/components/billing/receipt.module.css';
import { listReceipts } from '@/server/features/billing/reader-billing';
import { getDb } from '@/server/platform/db/client';
import { requireUser } from '@/server/features/identity/session';

// The reader's own receipts: never cached.
export const dynamic = 'force-dynamic';

export const metadata = accountMetadata('領収書', '/account/receipts');

export default async function ReceiptsPage() {
  const user = await requireUser('/account/receipts');
  const receipts = (await listReceipts(await getDb(), user.id))
    // A ¥0 invoice (the start of a free trial) is nothing to give a receipt for.
    .filter((receipt) => receipt.total > 0)
    .map(toReceiptView);
  return (
    <div className={styles.page}>
      <header>
        <h1 className={styles.listTitle}>領収書</h1>
        <p className={styles.muted}>
          有料プランのお支払いごとの領収書です。表示して印刷、または PDF に保存できます。
        </p>
      </header>
      <ReceiptList receipts={receipts} />
      <p className={styles.muted}>
        <Link href="/service-plans">ご利用中のプラン</Link>・
        <Link href="/account/edit">アカウント設定</Link>
      </p>
    </div>
  );
}
