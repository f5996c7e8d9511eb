import { Link } from '@/components/layout/site-link';
import styles from '@/components/billing/billing.module.css';
import { PageNotice } from '@/components/billing/page-notice';
import { METHOD_LABELS } from '@/lib/billing/purchase';
import { tipName } from '@/lib/billing/tip';
import { formatYen } from '@/lib/format';
import type { Purchase } from '@/server/features/purchases';
import tips from './tips.module.css';

/**
 * A paid tip's status page (the provider's success_url, once its event has arrived): thanks,
 * what was sent with the message shown back, the receipt, and back to the post.
 */
export function TipThanks({ tip, postHref }: { tip: Purchase; postHref: string }) {
  return (
    <div className={`${styles.page} ${styles.narrow}`}>
      <h1 className={styles.title}>チップを送りました</h1>
      <PageNotice tone="info">
        <p>チップを送りました。ありがとうございます。</p>
        <p>
          {tipName(tip.title)}：{formatYen(tip.amount)}（税込）・{METHOD_LABELS[tip.method]}
        </p>
      </PageNotice>
      {tip.message ? (
        <section aria-labelledby="tip-message-heading" className={styles.section}>
          <h2 id="tip-message-heading" className={styles.sectionTitle}>
            編集部へのメッセージ
          </h2>
          <p className={tips.quote}>{tip.message}</p>
        </section>
      ) : null}
      <p className={styles.backLink}>
        <Link href={postHref}>記事に戻る</Link>
        {' ／ '}
        <Link href="/account/receipts" prefetch={false}>
          領収書を見る
        </Link>
        {' ／ '}
        <Link href="/account" prefetch={false}>
          アカウント（購入履歴）
        </Link>
      </p>
    </div>
  );
}
