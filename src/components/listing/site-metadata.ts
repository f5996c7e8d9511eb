import type { Metadata } from 'next';
import { env } from '@/env';
import { type PageMetadataInput, pageMetadata } from '@/lib/metadata';

/** Page metadata on the site's settings (SITE_URL, SITE_NAME). */
export function sitePageMetadata(input: PageMetadataInput): Metadata {
  const { SITE_URL, SITE_NAME } = env();
  return pageMetadata(input, { siteUrl: SITE_URL, siteName: SITE_NAME });
}

/** The site as JSON-LD builders take it (src/lib/json-ld.ts). */
export function jsonLdSite(): { siteUrl: string; siteName: string } {
  const { SITE_URL, SITE_NAME } = env();
  return { siteUrl: SITE_URL, siteName: SITE_NAME };
}

/** A content item as its page's metadata reads it. */
export type MetadataItem = {
  id: string;
  title: string;
  description?: string;
  coverImage?: PageMetadataInput['image'];
};

/**
 * An item page's metadata (`/{section}/{id}`): the item's title, description and cover; with
 * no item (missing, or not for this reader) a not-found title that search engines leave out.
 */
export function itemPageMetadata(
  section: string,
  item: MetadataItem | undefined,
  options: { noIndex?: boolean } = {},
): Metadata {
  if (!item) return { title: 'ページが見つかりません', robots: { index: false } };
  return sitePageMetadata({
    title: item.title,
    description: item.description,
    path: `/${section}/${item.id}`,
    image: item.coverImage ?? null,
    noIndex: options.noIndex,
  });
}
