import { authorPath, seriesPath } from '../authors/works';
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
import { type WriterInput, authorsOf, writerPeople } from './people';

/** A writer as their author page describes them. */
export type ProfileInput = WriterInput & {
  id: string;
  nameKana?: string | null;
  role?: string | null;
  profile?: string | null;
  avatar?: ImageInput;
  updatedAt?: string | null;
  revisedAt?: string | null;
};

/**
 * An author page: a ProfilePage whose main entity is the writer (Google's profile-page data),
 * with the reading of their name, their title, their profile, portrait and own site.
 */
export function profilePageJsonLd(site: JsonLdSite, writer: ProfileInput): JsonLdObject {
  const url = absoluteUrl(site, authorPath(writer.id));
  const [image] = imageUrls(site, [writer.avatar]);
  const sameAs = writer.website ? absoluteUrl(site, writer.website) : undefined;
  return compact({
    '@context': CONTEXT,
    '@type': 'ProfilePage',
    url,
    inLanguage: 'ja',
    dateModified: isoDateTime(writer.revisedAt ?? writer.updatedAt),
    mainEntity: compact({
      '@type': 'Person',
      '@id': url ? `${url}#person` : undefined,
      name: writer.name,
      alternateName: writer.nameKana?.trim() || undefined,
      jobTitle: writer.role?.trim() || undefined,
      description: description(writer.profile),
      image,
      url,
      sameAs: sameAs ? [sameAs] : undefined,
    }),
  });
}

/** A series as its page describes it, and its episodes in order. */
export type SeriesInput = {
  id: string;
  title: string;
  description?: string | null;
  coverImage?: ImageInput;
  writers?: readonly WriterInput[];
};
export type EpisodeInput = { id: string; title: string };

/**
 * A series page: the CreativeWorkSeries with its writers and its episodes as parts, in order,
 * and the same episodes as an ItemList (what a search engine reads as a list page).
 */
export function seriesJsonLd(
  site: JsonLdSite,
  series: SeriesInput,
  episodes: readonly EpisodeInput[],
): JsonLdObject[] {
  const url = absoluteUrl(site, seriesPath(series.id));
  const images = imageUrls(site, [series.coverImage]);
  const episodeUrl = (e: EpisodeInput) => absoluteUrl(site, `/posts/${encodeURIComponent(e.id)}`);
  return [
    compact({
      '@context': CONTEXT,
      '@type': 'CreativeWorkSeries',
      '@id': url ? `${url}#series` : undefined,
      name: series.title,
      description: description(series.description),
      url,
      image: images.length > 0 ? images : undefined,
      inLanguage: 'ja',
      author: series.writers?.length ? authorsOf(site, writerPeople(series.writers)) : undefined,
      publisher: publisherOf(site),
      hasPart: episodes.map((e, i) =>
        compact({ '@type': 'Article', headline: e.title, url: episodeUrl(e), position: i + 1 }),
      ),
    }),
    {
      '@context': CONTEXT,
      '@type': 'ItemList',
      name: series.title,
      itemListOrder: 'https://schema.org/ItemListOrderAscending',
      numberOfItems: episodes.length,
      itemListElement: episodes.map((e, i) =>
        compact({ '@type': 'ListItem', position: i + 1, url: episodeUrl(e), name: e.title }),
      ),
    },
  ];
}
