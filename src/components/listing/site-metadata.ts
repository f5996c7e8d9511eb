import type { Metadata } from 'next';
import { env } from '@/env';
import type { FeedLink } from '@/lib/feeds';
import { type PageMetadataInput, pageMetadata } from '@/lib/metadata';
import { type SeoFields, type ShareSource, resolveShare } from '@/lib/share/share-meta';
import { generatedShareImage } from '@/lib/share/share-image-path';

/** Page metadata on the site's settings (SITE_URL, SITE_NAME). */
export function sitePageMetadata(input: PageMetadataInput): Metadata {
  const { SITE_URL, SITE_NAME } = env();
  return pageMetadata(input, { siteUrl: SITE_URL, siteName: SITE_NAME });
}

/** The site as JSON-LD builders take it (src/lib/json-ld/). */
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
  seo?: SeoFields | null;
  updatedAt?: string;
  revisedAt?: string;
};

export type ShareMetadataInput = Omit<ShareSource, 'generatedImage'> & {
  /** The page's path; canonical and og:url. */
  path: string;
  /** Where the generated share image is made from: the item's endpoint, id and version. */
  generated: { endpoint: string; id: string; version?: string | null; title?: string };
  /** The page stays out of search engines whatever the item says (a preview, a members' area). */
  noIndex?: boolean;
  /** Feeds named in the head beside the site feed (a series' own). */
  feeds?: readonly FeedLink[];
};

/**
 * A content page's metadata from its item and the item's `seo` field (src/lib/share/share-meta.ts):
 * the same title, description, image and robots in <title>, og:* and twitter:*.
 */
export function shareMetadata(input: ShareMetadataInput): Metadata {
  const { generated } = input;
  const share = resolveShare({
    ...input,
    generatedImage: generatedShareImage(
      generated.endpoint,
      generated.id,
      generated.version,
      generated.title ?? input.title,
    ),
  });
  return sitePageMetadata({
    title: share.title,
    absoluteTitle: share.titleIsCustom,
    description: share.description,
    path: input.path,
    image: share.image,
    noIndex: share.noIndex || input.noIndex,
    feeds: input.feeds,
  });
}

/**
 * An item page's metadata (`/{section}/{id}`): the item's title, description and cover; with
 * no item (missing, or not for this reader) a not-found title that search engines leave out.
 */
export function itemPageMetadata(
  section: string,
  item: MetadataItem | undefined,
  options: { noIndex?: boolean; leadText?: string | null; feeds?: readonly FeedLink[] } = {},
): Metadata {
  if (!item) return { title: 'ページが見つかりません', robots: { index: false } };
  return shareMetadata({
    ...item,
    leadText: options.leadText,
    path: `/${section}/${item.id}`,
    generated: { endpoint: section, id: item.id, version: item.revisedAt ?? item.updatedAt },
    noIndex: options.noIndex,
    feeds: options.feeds,
  });
}
