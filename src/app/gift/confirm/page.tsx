import '@/styles/base';
import { Link } from '@/components/layout/site-link';
import { sitePageMetadata } from '@/components/listing/site-metadata';
import styles from '@/components/billing/billing.module.css';
import screen from '@/components/billing/checkout-summary.module.css';
import { PageNotice } from '@/components/billing/page-notice';
import { PaymentMethodForm } from '@/components/billing/payment-method-form';
import { giftOrderSchema, planForMonths } from '@/lib/billing/gift-plans';
import { formatYen } from '@/lib/format';
import { giftOffer, giftPrices } from '@/server/features/billing/gift-checkout';
import { requireUser } from '@/server/features/identity/session';
import { getDb } from '@/server/platform/db/client';
import { readFlash } from '@/server/platform/http/read-flash';
import { GiftForm } from '../gift-form';
import { GiftTerms } from '../gift-terms';

// The reader's own order: never cached.
export const dynamic = 'force-dynamic';

export const metadata = sitePageMetadata({
  title: 'ギフトのご購入内容の確認',
  path: '/gift/confirm',
  noIndex: true,
});

type Query = Record<string, string | string[] | undefined>;

const text = (query: Query, key: string) =>
  typeof query[key] === 'string' ? query[key] : undefined;

/**
 * The final confirmation screen (特定商取引法 Article 12-6) of a gift, before the provider's
 * checkout in payment mode (docs/decisions/054-gift-subscriptions.md). The order comes from the
 * form at /gift in the query and is checked here (a bad one shows the form again with the
 * reasons); the price is the catalogue's (gift-checkout.ts, the same that the checkout uses). A
 * signed-out visitor signs in or up first and comes back to this very screen.
 */
export default async function GiftConfirmPage({ searchParams }: { searchParams: Promise<Query> }) {
  const query = await searchParams;
  const values = {
    months: text(query, 'months'),
    recipient: text(query, 'recipient'),
    message: text(query, 'message'),
    deliver: text(query, 'deliver'),
  };
  const here = `/gift/confirm?${new URLSearchParams(
    Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined),
  ).toString()}`;
  await requireUser(here);
  const db = await getDb();
  const parsed = giftOrderSchema.safeParse(values);
  if (!parsed.success) {
    const errors = Object.fromEntries(
      parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message]),
    );
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <h1 className={styles.title}>メンバーシップをギフトで贈る</h1>
        <PageNotice tone="error">
          <p>入力内容を確認してください。</p>
        </PageNotice>
        <GiftForm prices={await giftPrices(db)} values={values} errors={errors} />
      </div>
    );
  }
  const order = parsed.data;
  const [offer, flash] = await Promise.all([giftOffer(db, order), readFlash()]);
  const change = `/gift?${new URLSearchParams(
    Object.entries(order).map(([key, value]) => [key, String(value)]),
  ).toString()}`;
  if ('refused' in offer) {
    return (
      <div className={`${styles.page} ${styles.narrow}`}>
        <h1 className={styles.title}>ギフトのご購入内容の確認</h1>
        <PageNotice tone="info">
          <p>{offer.refused}</p>
        </PageNotice>
        <p className={styles.backLink}>
          <Link href={change}>ギフトの画面に戻る</Link>
        </p>
      </div>
    );
  }
  const error = flash?.message ?? Object.values(flash?.fieldErrors ?? {})[0] ?? null;
  const { price, methods } = offer;
  return (
    <div className={`${styles.page} ${styles.narrow} ${screen.screen}`}>
      <h1 className={styles.title}>ギフトのご購入内容の確認</h1>
      {error ? (
        <PageNotice tone="error">
          <p>{error}</p>
        </PageNotice>
      ) : null}
      <section aria-label="ご購入" className={styles.checkoutBox}>
        <p>
          メンバーシップ {order.months}か月分のギフト（{order.recipient} さんへ）{' '}
          <strong>{formatYen(price)}</strong>（税込）
        </p>
        <PaymentMethodForm
          termsHeading="ご購入内容の詳細"
          fields={{
            purchase: 'gift-plan',
            plan: planForMonths(order.months),
            months: order.months,
            recipient: order.recipient,
            message: order.message,
            deliver: order.deliver,
          }}
          methods={methods}
          submitLabel="確認して購入する（決済画面へ）"
        />
        <p className={styles.backLink}>
          <Link href={change}>内容を変更する</Link>
        </p>
      </section>
      <section aria-labelledby="terms-detail" className={styles.section}>
        <h2 id="terms-detail" className={styles.sectionTitle}>
          ご購入内容の詳細
        </h2>
        <GiftTerms order={order} price={price} methods={methods} />
      </section>
    </div>
  );
}
