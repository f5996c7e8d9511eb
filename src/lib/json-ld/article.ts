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
} from './core';
import { publisherOf } from './organization';
import { type JsonLdPerson, authorsOf } from './people';

/** The class the page puts on the members-only part of an article (hasPart.cssSelector). */
export const PAYWALLED_CLASS = 'paywalled';
export const PAYWALLED_SELECTOR = `.${PAYWALLED_CLASS}`;

export type ArticleInput = {
  type?: 'Article' | 'NewsArticle' | 'BlogPosting';
  /** The page's path, e.g. `/posts/{id}`. */
  path: string;
  headline: string;
  description?: string | null;
  /** The cover image (and any others), paths or absolute URLs. */
  images?: readonly ImageInput[];
  datePublished?: string | Date | null;
  dateModified?: string | Date | null;
  authors?: readonly JsonLdPerson[];
  /** The feature (category) name. */
  section?: string | null;
  keywords?: readonly string[];
  /**
   * Whether everyone may read the whole piece (a public-preview post). False for members'
   * content, whoever is viewing: it describes the content, not this viewer's access.
   */
  isAccessibleForFree: boolean;
  /** The members-only part of the page; `.paywalled` unless told. */
  paywalledSelector?: string;
};

export function articleJsonLd(site: JsonLdSite, input: ArticleInput): JsonLdObject {
  const url = absoluteUrl(site, input.path);
  const images = imageUrls(site, input.images);
  const published = isoDateTime(input.datePublished);
  return compact({
    '@context': CONTEXT,
    '@type': input.type ?? 'Article',
    headline: input.headline,
    description: description(input.description),
    image: images.length > 0 ? images : [absoluteUrl(site, DEFAULT_SHARE_IMAGE.url) ?? ''],
    datePublished: published,
    dateModified: isoDateTime(input.dateModified) ?? published,
    author: authorsOf(site, input.authors),
    publisher: publisherOf(site),
    mainEntityOfPage: { '@type': 'WebPage', '@id': url },
    url,
    inLanguage: 'ja',
    articleSection: input.section || undefined,
    keywords: input.keywords?.length ? input.keywords.join(', ') : undefined,
    isAccessibleForFree: input.isAccessibleForFree,
    hasPart: input.isAccessibleForFree
      ? undefined
      : {
          '@type': 'WebPageElement',
          isAccessibleForFree: false,
          cssSelector: input.paywalledSelector ?? PAYWALLED_SELECTOR,
        },
  });
}
