import '@/styles/base';
import { toPlanView } from '@/components/billing/views';
import {
  priceCellHtml,
  withCatalogue,
  withOperator,
} from '@/components/billing/commercial-transactions';
import styles from '@/components/content/article.module.css';
import { ItemHeader } from '@/components/content/item-header';
import { RichText } from '@/components/content/rich-text';
import { siteObjectPageMetadata } from '@/components/content/site-page';
import pageStyles from '@/components/content/site-page.module.css';
import { env } from '@/env';
import { formatDateJa, isoDateJa } from '@/lib/format';
import { listPlans } from '@/server/features/billing/catalogue';
import { findSitePage, sitePageLabel } from '@/server/features/content/site-pages';
import { getDb } from '@/server/platform/db/client';
import { operatorOf } from '@/server/features/operator/operator';
import local from './page.module.css';

// Read from the content service per request, never at build time.
export const dynamic = 'force-dynamic';

export const generateMetadata = () => siteObjectPageMetadata('specified-commercial-transactions');

/**
 * The operator's 特定商取引法 text from the CMS, with the prices (販売価格) taken from the plan
 * catalogue, so that they never disagree with /service-plans, and the operator's details
 * (販売業者 and the rest) from the operator settings, so that they are never a placeholder
 * (src/components/billing/commercial-transactions.ts, src/server/features/operator).
 */
export default async function SpecifiedCommercialTransactionsPage() {
  const [page, plans] = await Promise.all([
    findSitePage('specified-commercial-transactions'),
    getDb().then(listPlans),
  ]);
  const trialDays = env().BILLING_TRIAL_DAYS;
  const views = plans.map(toPlanView);
  const operator = operatorOf(env());
  // Without the CMS text, the page still names the operator and the prices.
  const withDetails = withOperator(page?.body ?? '', operator);
  const body = withCatalogue(withDetails.html, views, trialDays);
  const missingRows = withDetails.missing
    .map((row) => `<tr><th>${row.label}</th><td>${row.html}</td></tr>`)
    .join('');
  const updated = page ? (page.revisedAt ?? page.publishedAt ?? page.updatedAt) : null;
  return (
    <article className={`${styles.article} ${pageStyles.page}`}>
      <ItemHeader
        title={page?.title ?? sitePageLabel('specified-commercial-transactions')}
        description={page?.description}
        extra={
          updated ? (
            <span>
              最終更新：<time dateTime={isoDateJa(updated)}>{formatDateJa(updated)}</time>
            </span>
          ) : null
        }
      />
      <div className={styles.body}>
        {operator.demo ? (
          <p className={local.demo} role="note">
            これはデモ用の表示です。販売業者などの事業者情報は架空の値で、実在の事業者ではありません。
          </p>
        ) : null}
        {missingRows ? <RichText html={`<table><tbody>${missingRows}</tbody></table>`} /> : null}
        <RichText html={body.html} />
        {body.pricesPlaced ? null : (
          <RichText
            html={`<h2>販売価格</h2><table><tbody><tr><th>販売価格</th><td>${priceCellHtml(views, trialDays)}</td></tr></tbody></table>`}
          />
        )}
      </div>
    </article>
  );
}
