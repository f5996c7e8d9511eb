import { generatedShareImage } from '../share/share-image-path';
import { type SeoFields, type ShareImage, resolveShare } from '../share/share-meta';
import { articleJsonLd } from './article';
import { itemBreadcrumbJsonLd } from './breadcrumbs';
import type { ImageInput, JsonLdObject, JsonLdSite } from './core';
import { podcastEpisodeJsonLd, videoObjectJsonLd } from './media';
import { type WriterInput, writerPeople } from './people';

/**
 * A content item's cover and dates as the JSON-LD inputs take them: published when first
 * published (else created), modified when last revised (else updated).
 */
export function contentImagesAndDates<Image extends ImageInput, Time extends string | Date>(item: {
  coverImage?: Image | null;
  publishedAt?: Time | null;
  createdAt: Time;
  revisedAt?: Time | null;
  updatedAt: Time;
}) {
  return {
    images: item.coverImage ? [item.coverImage] : [],
    datePublished: item.publishedAt ?? item.createdAt,
    dateModified: item.revisedAt ?? item.updatedAt,
  };
}

/** The content sections with item pages, and each one's name in the breadcrumb trail. */
const ITEM_SECTIONS = {
  posts: '記事',
  connect: 'コネクト',
  movies: '動画',
  audios: '音声',
} as const;

export type ItemSection = keyof typeof ITEM_SECTIONS;

/** A content item as its page's structured data reads it. */
export type ContentItemInput = {
  id: string;
  title: string;
  description?: string | null;
  coverImage?: ShareImage | null;
  publishedAt?: string | null;
  createdAt: string;
  revisedAt?: string | null;
  updatedAt: string;
  writers?: readonly WriterInput[];
  /** A public-preview item; absent for content that is always members' (connect pages). */
  isPublicPreview?: boolean;
  /** The editor's meta title, description and share image, which win where filled. */
  seo?: SeoFields | null;
};

/** What only some sections describe: a post's feature and tags, a movie's duration and embed. */
export type ContentItemDetails = {
  section?: string | null;
  keywords?: readonly string[];
  /** Seconds. */
  duration?: number | null;
  /** Only what the access policy let out (undefined for a reader without access). */
  embedUrl?: string | null;
};

/**
 * An item page's structured data: the item as its section describes it (an Article for posts
 * and connect pages, a VideoObject for movies, a PodcastEpisode for audios) and the trail home →
 * section → item. It describes the content, not this reader's access: isAccessibleForFree is the
 * item's public preview (never for connect pages). Writers link to their author pages (and
 * their own sites as sameAs). Its headline, description and image are the ones the page's
 * metadata gives (resolveShare: the editor's `seo` field, else the item's title, description and
 * cover, else the generated share image), never text of the body: no lead, so nothing below the
 * members' divider (docs/decisions/029-divider-is-the-lead.md).
 */
export function contentItemJsonLd(
  site: JsonLdSite,
  section: ItemSection,
  item: ContentItemInput,
  details: ContentItemDetails = {},
): JsonLdObject[] {
  const path = `/${section}/${item.id}`;
  const dates = contentImagesAndDates(item);
  const share = resolveShare({
    ...item,
    // The same address as the page's og:image (itemPageMetadata), so both name one image.
    generatedImage: generatedShareImage(
      section,
      item.id,
      item.revisedAt ?? item.updatedAt,
      item.title,
    ),
  });
  const common = {
    ...dates,
    path,
    description: share.description,
    images: share.image ? [share.image] : [],
    isAccessibleForFree: item.isPublicPreview ?? false,
  };
  const named = writerPeople(item.writers);
  const main =
    section === 'movies'
      ? videoObjectJsonLd(site, {
          ...common,
          name: share.title,
          duration: details.duration,
          authors: named,
          embedUrl: details.embedUrl,
        })
      : section === 'audios'
        ? podcastEpisodeJsonLd(site, {
            ...common,
            name: share.title,
            duration: details.duration,
            authors: named,
          })
        : articleJsonLd(site, {
            ...common,
            headline: share.title,
            authors: named,
            section: details.section,
            keywords: details.keywords,
          });
  return [
    main,
    itemBreadcrumbJsonLd(
      site,
      { name: ITEM_SECTIONS[section], path: `/${section}` },
      { name: item.title, path },
    ),
  ];
}
