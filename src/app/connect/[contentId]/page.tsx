import '@/styles/base';
import '@/styles/item';
import { BookmarkButton } from '@/components/bookmarks/bookmark-button.client';
import { ItemCover, ItemHeader } from '@/components/content/item-header';
import { PaywalledLead } from '@/components/content/paywalled-lead';
import { RichText } from '@/components/content/rich-text';
import styles from '@/components/content/article.module.css';
import { jsonLdSite } from '@/components/listing/site-metadata';
import { JsonLd } from '@/components/seo/json-ld';
import { PAYWALLED_CLASS } from '@/lib/json-ld/article';
import { contentItemJsonLd } from '@/lib/json-ld/content-item';
import { readConnect } from '@/server/features/access/read';
import type { RouteParamsProps } from '@/components/listing/page-params';
import { itemMetadataOf, readShownOr404 } from '@/components/content/item-page';
import { DoneNotice } from '@/components/ui/done-notice';

export async function generateMetadata({ params }: RouteParamsProps<'contentId'>) {
  // SPEC §2: title, description and image from the connect page itself (for sharing). The
  // community area is for members: its pages stay out of search engines, as out of the sitemap.
  return itemMetadataOf('connect', readConnect, params, { noIndex: true });
}

/** A connect page: signed-in members read it all; others see the lead and a way in. */
export default async function ConnectDetailPage({ params }: RouteParamsProps<'contentId'>) {
  // Only what the access policy gives leaves the server: the body, or its lead.
  const shown = await readShownOr404(readConnect, params);
  const page = shown.item;
  const body = page.body ?? '';
  const path = `/connect/${page.id}`;
  return (
    <article className={styles.article}>
      <DoneNotice />
      <JsonLd data={contentItemJsonLd(jsonLdSite(), 'connect', page)} />
      <ItemHeader
        kicker="コネクト"
        title={page.title}
        date={page.publishedAt ?? page.createdAt}
        description={page.description}
        access={shown.access}
      />
      <div className={styles.actions}>
        <BookmarkButton endpoint="connect" contentId={page.id} title={page.title} />
      </div>
      <ItemCover image={page.coverImage} />
      <div className={styles.body}>
        {shown.full ? (
          <div className={PAYWALLED_CLASS}>
            <RichText html={body} />
          </div>
        ) : (
          <PaywalledLead html={body} shown={shown} item="connect" returnTo={path} />
        )}
      </div>
    </article>
  );
}
