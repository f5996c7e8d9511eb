/**
 * schema.org structured data (JSON-LD) for the site's pages, as plain objects; render them
 * with <JsonLd> (src/components/seo/json-ld.tsx). Every URL is absolute on SITE_URL. The
 * builders take what the access policy lets out and nothing more: for members' content they
 * mark the paywall (isAccessibleForFree: false, and for articles the `.paywalled` part, as
 * Google's paywalled-content guidelines ask) and never carry a gated media URL.
 *
 * One module per family of types; this file is what pages import (`@/lib/json-ld`).
 */

export {
  DEFAULT_LOGO,
  type JsonLdImage,
  type JsonLdObject,
  type JsonLdSite,
  type JsonLdValue,
  absoluteUrl,
  isoDateTime,
  isoDuration,
} from './core';
export { organizationJsonLd, webSiteJsonLd } from './organization';
export { type JsonLdPerson, type WriterInput, writerPeople } from './people';
export { type ArticleInput, PAYWALLED_CLASS, PAYWALLED_SELECTOR, articleJsonLd } from './article';
export {
  type MediaInput,
  type PodcastEpisodeInput,
  type VideoInput,
  podcastEpisodeJsonLd,
  videoObjectJsonLd,
} from './media';
export { type JobPostingInput, jobPostingJsonLd } from './job-posting';
export { type BreadcrumbItem, breadcrumbJsonLd, itemBreadcrumbJsonLd } from './breadcrumbs';
export {
  type ContentItemDetails,
  type ContentItemInput,
  type ItemSection,
  contentImagesAndDates,
  contentItemJsonLd,
} from './content-item';
export {
  type EpisodeInput,
  type ProfileInput,
  type SeriesInput,
  profilePageJsonLd,
  seriesJsonLd,
} from './authors-and-series';
export { serializeJsonLd } from './serialize';
