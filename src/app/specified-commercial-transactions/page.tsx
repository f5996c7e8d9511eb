import { toPlanView } from '@/components/billing/views';
import { withCatalogue, priceCellHtml } from '@/components/billing/commercial-transactions';
import styles from '@/components/content/article.module.css';
import { ItemHeader } from '@/components/content/item-header';
import { RichText } from '@/components/content/rich-text';
import { SitePageView, siteObjectPageMetadata } from '@/components/content/site-page';
import pageStyles from '@/components/content/site-page.module.css';
import { env } from '@/env';
import { formatDateJa, isoDateJa } from '@/lib/format';
import { listPlans } from '@/server/billing/catalogue';
import { findSitePage } from '@/server/content/site-pages';
import { getDb } from '@/server/db/client';

// Read from the content service per request, never at build time.
export const dynamic = 'force-dynamic';

export const generateMetadata = () => siteObjectPageMetadata('specified-commercial-transactions');

/**
 * The operator's 特定商取引法 text from the CMS, with the prices (販売価格) taken from the plan
 * catalogue, so that they never disagree with /service-plans (src/components/billing/
 * commercial-transactions.ts).
 */
export default async function SpecifiedCommercialTransactionsPage() {
  const [page, plans] = await Promise.all([
    findSitePage('specified-commercial-transactions'),
    getDb().then(listPlans),
  ]);
  if (!page) return <SitePageView endpoint="specified-commercial-transactions" showUpdated />;
  const trialDays = env().BILLING_TRIAL_DAYS;
  const views = plans.map(toPlanView);
  const body = withCatalogue(page.body ?? '', views, trialDays);
  const updated = page.revisedAt ?? page.publishedAt ?? page.updatedAt;
  return (
    <article className={`${styles.article} ${pageStyles.page}`}>
      <ItemHeader
        title={page.title}
        description={page.description}
        extra={
          updated ? (
            <span>
              最終更新：<time dateTime={isoDateJa(updated)}>{formatDateJa(updated)}</time>
            </span>
          ) : null
        }
      />
      <div className={styles.body}>
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
