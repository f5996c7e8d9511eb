import 'server-only';
import type { Metadata } from 'next';
import { Link } from '@/components/layout/site-link';
import { shareMetadata, sitePageMetadata } from '@/components/listing/site-metadata';
import { proseOf } from '@/lib/share/share-text';
import { formatDateJa, isoDateJa } from '@/lib/format';
import {
  type SitePageEndpoint,
  findSitePage,
  sitePageLabel,
  sitePagePath,
  splitAtSection,
} from '@/server/features/content/site-pages';
import styles from './article.module.css';
import { ItemHeader } from './item-header';
import { RichText } from './rich-text';
import pageStyles from './site-page.module.css';

/**
 * An information page read from its CMS object endpoint (about, faq, terms, …): the article
 * look of the posts, without cover or byline. Each route is a few lines around this.
 */

const pathOf = sitePagePath;

export async function siteObjectPageMetadata(endpoint: SitePageEndpoint): Promise<Metadata> {
  const page = await findSitePage(endpoint);
  if (!page)
    return sitePageMetadata({
      title: sitePageLabel(endpoint),
      path: pathOf(endpoint),
      noIndex: true,
    });
  return shareMetadata({
    title: page.title,
    description: page.description,
    leadText: page.body ? proseOf(page.body) : null,
    seo: page.seo,
    path: pathOf(endpoint),
    generated: { endpoint, id: '', version: page.revisedAt ?? page.updatedAt },
  });
}

export type SitePageViewProps = {
  endpoint: SitePageEndpoint;
  /** Legal texts say when they last changed. */
  showUpdated?: boolean;
  /**
   * A part of the body others link to (e.g. /terms#privacy): the first h2 matching `heading`
   * and what follows it up to the next h2 get the id. Nothing is added when no heading matches.
   */
  anchor?: { id: string; heading: RegExp };
};

export async function SitePageView({ endpoint, showUpdated, anchor }: SitePageViewProps) {
  const page = await findSitePage(endpoint);
  if (!page) {
    return (
      <article className={styles.article}>
        <ItemHeader title={sitePageLabel(endpoint)} />
        <div className={`${styles.body} ${pageStyles.empty}`} role="status">
          <p>このページは準備中です。公開まで、しばらくお待ちください。</p>
          <p>
            <Link href="/">トップページへ戻る</Link>
          </p>
        </div>
      </article>
    );
  }

  const body = page.body ?? '';
  const parts = anchor ? splitAtSection(body, anchor.heading) : null;
  const updated = page.revisedAt ?? page.publishedAt ?? page.updatedAt;
  return (
    <article className={`${styles.article} ${pageStyles.page}`}>
      <ItemHeader
        title={page.title}
        description={page.description}
        extra={
          showUpdated && updated ? (
            <span>
              最終更新：<time dateTime={isoDateJa(updated)}>{formatDateJa(updated)}</time>
            </span>
          ) : null
        }
      />
      <div className={styles.body}>
        {parts && anchor ? (
          <>
            {parts.before ? <RichText html={parts.before} /> : null}
            <div id={anchor.id} className={pageStyles.anchored}>
              <RichText html={parts.section} />
            </div>
            {parts.after ? <RichText html={parts.after} /> : null}
          </>
        ) : (
          <RichText html={body} />
        )}
      </div>
    </article>
  );
}
