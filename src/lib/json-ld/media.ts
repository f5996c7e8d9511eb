import type { SiteSettings } from '../metadata';
import { DEFAULT_SHARE_IMAGE } from '../site';
import {
  CONTEXT,
  type ImageInput,
  type JsonLdObject,
  type JsonLdSite,
  absoluteUrl,
  compact,
  description,
  imageUrls,
  isoDateTime,
  isoDuration,
} from './core';
import { publisherOf } from './organization';
import { type JsonLdPerson, authorsOf } from './people';

/** Movies and audio episodes: what they say of their media depends on whether they are free. */

export type MediaInput = {
  /** The page's path, e.g. `/movies/{id}`. */
  path: string;
  name: string;
  description?: string | null;
  images?: readonly ImageInput[];
  datePublished?: string | Date | null;
  dateModified?: string | Date | null;
  /** Seconds. */
  duration?: number | null;
  authors?: readonly JsonLdPerson[];
  /** A public-preview item: its media may be named. False for members' (paid) media. */
  isAccessibleForFree: boolean;
  /**
   * The media file's stable public URL. Ignored unless isAccessibleForFree: paid files are
   * served through signed, expiring URLs that must not be published.
   */
  contentUrl?: string | null;
};

export type VideoInput = MediaInput & {
  /** A YouTube or Vimeo player URL; ignored unless isAccessibleForFree, like contentUrl. */
  embedUrl?: string | null;
};

function freeUrl(site: SiteSettings, free: boolean, url: string | null | undefined) {
  return free && url ? absoluteUrl(site, url) : undefined;
}

export function videoObjectJsonLd(site: JsonLdSite, input: VideoInput): JsonLdObject {
  const url = absoluteUrl(site, input.path);
  const thumbnails = imageUrls(site, input.images);
  return compact({
    '@context': CONTEXT,
    '@type': 'VideoObject',
    name: input.name,
    // Google requires a description and a thumbnail for video results.
    description: description(input.description) ?? input.name,
    thumbnailUrl:
      thumbnails.length > 0 ? thumbnails : [absoluteUrl(site, DEFAULT_SHARE_IMAGE.url) ?? ''],
    uploadDate: isoDateTime(input.datePublished),
    dateModified: isoDateTime(input.dateModified),
    duration: isoDuration(input.duration),
    contentUrl: freeUrl(site, input.isAccessibleForFree, input.contentUrl),
    embedUrl: freeUrl(site, input.isAccessibleForFree, input.embedUrl),
    url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    inLanguage: 'ja',
    author: input.authors?.length ? authorsOf(site, input.authors) : undefined,
    publisher: publisherOf(site),
    isAccessibleForFree: input.isAccessibleForFree,
  });
}

export type PodcastEpisodeInput = MediaInput & {
  /** The show the episode belongs to, when there is one. */
  series?: { name: string; path?: string } | null;
};

export function podcastEpisodeJsonLd(site: JsonLdSite, input: PodcastEpisodeInput): JsonLdObject {
  const url = absoluteUrl(site, input.path);
  const images = imageUrls(site, input.images);
  const duration = isoDuration(input.duration);
  const contentUrl = freeUrl(site, input.isAccessibleForFree, input.contentUrl);
  const seriesUrl = input.series?.path ? absoluteUrl(site, input.series.path) : undefined;
  return compact({
    '@context': CONTEXT,
    '@type': 'PodcastEpisode',
    name: input.name,
    description: description(input.description),
    url,
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    image: images.length > 0 ? images : undefined,
    datePublished: isoDateTime(input.datePublished),
    dateModified: isoDateTime(input.dateModified),
    duration,
    inLanguage: 'ja',
    author: input.authors?.length ? authorsOf(site, input.authors) : undefined,
    publisher: publisherOf(site),
    partOfSeries: input.series
      ? compact({ '@type': 'PodcastSeries', name: input.series.name, url: seriesUrl })
      : undefined,
    associatedMedia: contentUrl
      ? compact({ '@type': 'AudioObject', contentUrl, duration })
      : undefined,
    isAccessibleForFree: input.isAccessibleForFree,
  });
}
