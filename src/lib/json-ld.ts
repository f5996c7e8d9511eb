import {
  EMPLOYMENT_TYPES,
  EMPLOYMENT_TYPE_SCHEMA,
  type EmploymentType,
  SALARY_UNITS,
  SALARY_UNIT_TEXT,
  type SalaryUnit,
} from './jobs';
import { authorPath, seriesPath } from './authors/works';
import { type SiteSettings, truncateDescription } from './metadata';
import { generatedShareImage } from './share/share-image-path';
import { type SeoFields, type ShareImage, resolveShare } from './share/share-meta';
import { DEFAULT_SHARE_IMAGE } from './site';

/**
 * schema.org structured data (JSON-LD) for the site's pages, as plain objects; render them
 * with <JsonLd> (src/components/seo/json-ld.tsx). Every URL is absolute on SITE_URL. The
 * builders take what the access policy lets out and nothing more: for members' content they
 * mark the paywall (isAccessibleForFree: false, and for articles the `.paywalled` part, as
 * Google's paywalled-content guidelines ask) and never carry a gated media URL.
 */

export type JsonLdValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonLdValue[]
  | { readonly [key: string]: JsonLdValue | undefined };

export type JsonLdObject = {
  readonly '@type': string;
  readonly [key: string]: JsonLdValue | undefined;
};

/** The site's name and origin (SITE_URL, SITE_NAME from env()), and its logo. */
export type JsonLdSite = SiteSettings & {
  /** A path on the site or an absolute URL; defaults to the 180×180 app icon. */
  logo?: JsonLdImage;
};

export type JsonLdImage = { url: string; width?: number; height?: number };

/** The class the page puts on the members-only part of an article (hasPart.cssSelector). */
export const PAYWALLED_CLASS = 'paywalled';
export const PAYWALLED_SELECTOR = `.${PAYWALLED_CLASS}`;

export const DEFAULT_LOGO: JsonLdImage = { url: '/apple-icon.png', width: 180, height: 180 };

const CONTEXT = 'https://schema.org';

const origin = (site: SiteSettings) => site.siteUrl.replace(/\/+$/, '');

/**
 * An absolute http(s) URL for a path on the site or a URL from the CMS (a hosted microCMS
 * gives absolute image URLs, the built-in one root-relative ones). Anything with another
 * scheme (javascript:, data:) is dropped.
 */
export function absoluteUrl(site: SiteSettings, urlOrPath: string): string | undefined {
  const value = urlOrPath.trim();
  if (!value) return undefined;
  if (/^https?:\/\//i.test(value)) return value;
  if (value.startsWith('//')) return `https:${value}`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) return undefined;
  return `${origin(site)}${value.startsWith('/') ? value : `/${value}`}`;
}

/** An ISO 8601 date-time, or undefined for a missing or unreadable one. */
export function isoDateTime(value: string | Date | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

/** Seconds as an ISO 8601 duration: 3723 → `PT1H2M3S`. */
export function isoDuration(seconds: number | null | undefined): string | undefined {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0)
    return undefined;
  const total = Math.round(seconds);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (total === 0) return 'PT0S';
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s ? `${s}S` : ''}`;
}

function imageObject(site: SiteSettings, image: JsonLdImage): JsonLdObject | undefined {
  const url = absoluteUrl(site, image.url);
  if (!url) return undefined;
  return {
    '@type': 'ImageObject',
    url,
    ...(image.width ? { width: image.width } : {}),
    ...(image.height ? { height: image.height } : {}),
  };
}

type ImageInput = JsonLdImage | string | null | undefined;

function imageUrls(site: SiteSettings, images: readonly ImageInput[] | undefined): string[] {
  return (images ?? []).flatMap((image) => {
    if (!image) return [];
    const url = absoluteUrl(site, typeof image === 'string' ? image : image.url);
    return url ? [url] : [];
  });
}

const organizationId = (site: SiteSettings) => `${origin(site)}/#organization`;
const websiteId = (site: SiteSettings) => `${origin(site)}/#website`;

/** The publisher as Article and media objects name it (in full: a page may carry it alone). */
function publisherOf(site: JsonLdSite): JsonLdObject {
  return {
    '@type': 'Organization',
    '@id': organizationId(site),
    name: site.siteName,
    url: `${origin(site)}/`,
    logo: imageObject(site, site.logo ?? DEFAULT_LOGO),
  };
}

/** A person named as an author: `url` is the page about them (their author page), `sameAs` their own site. */
export type JsonLdPerson = { name: string; url?: string | null; sameAs?: string | null };

function personOf(site: SiteSettings, person: JsonLdPerson): JsonLdObject {
  const url = person.url ? absoluteUrl(site, person.url) : undefined;
  const sameAs = person.sameAs ? absoluteUrl(site, person.sameAs) : undefined;
  return {
    '@type': 'Person',
    name: person.name,
    ...(url ? { url } : {}),
    ...(sameAs ? { sameAs } : {}),
  };
}

function authorsOf(site: JsonLdSite, authors: readonly JsonLdPerson[] | undefined) {
  const people = (authors ?? []).filter((a) => a.name.trim() !== '');
  // Google wants an author; unsigned pieces are the publisher's own.
  if (people.length === 0) return [publisherOf(site)];
  return people.map((person) => personOf(site, person));
}

/** A writer as the content service gives one: with an id, they have an author page. */
export type WriterInput = { id?: string; name: string; website?: string | null };

/** Writers as JSON-LD authors: their author page as `url`, their own site as `sameAs`. */
export function writerPeople(writers: readonly WriterInput[] | undefined): JsonLdPerson[] {
  return (writers ?? []).map((w) => ({
    name: w.name,
    url: w.id ? authorPath(w.id) : undefined,
    sameAs: w.website,
  }));
}

function description(text: string | null | undefined): string | undefined {
  const cut = text ? truncateDescription(text) : '';
  return cut || undefined;
}

/** Drops undefined members so the JSON stays small and free of `null` noise. */
function compact<T extends Record<string, JsonLdValue | undefined>>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;
}

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

export type JobPostingInput = {
  path: string;
  title: string;
  /** The full listing as HTML (Google for Jobs reads the description's markup). */
  description: string;
  datePosted?: string | Date | null;
  /** The end of the closing day (募集締切); none: the listing has no deadline yet. */
  validThrough?: string | Date | null;
  /** The site's 雇用形態 values (src/lib/jobs.ts EMPLOYMENT_TYPES). */
  employmentTypes?: readonly string[];
  /**
   * 勤務地: the prefecture and the detail as written, or a フルリモート listing (no place of
   * work, applicants in Japan). 一部リモート keeps its place.
   */
  location?: { prefecture?: string | null; detail?: string | null; fullRemote?: boolean } | null;
  /** 給与: the unit (年収, 月給, 時給) and the range in yen; either end may be open. */
  salary?: { unit?: string | null; min?: number | null; max?: number | null } | null;
  hiringOrganization?: { name: string; url?: string | null; logo?: string | null } | null;
  /** The listing's id, as the hiring organization's identifier of it. */
  identifier?: string | null;
};

const isSalaryUnit = (unit: string | null | undefined): unit is SalaryUnit =>
  !!unit && (SALARY_UNITS as readonly string[]).includes(unit);
const isEmploymentType = (type: string): type is EmploymentType =>
  (EMPLOYMENT_TYPES as readonly string[]).includes(type);

/** baseSalary: a MonetaryAmount in yen with its unit; none without a unit or an amount. */
function baseSalaryOf(salary: JobPostingInput['salary']): JsonLdObject | undefined {
  if (!salary || !isSalaryUnit(salary.unit)) return undefined;
  const min = salary.min ?? undefined;
  const max = salary.max ?? undefined;
  if (min === undefined && max === undefined) return undefined;
  const exact = min !== undefined && (max === undefined ? false : max === min);
  return {
    '@type': 'MonetaryAmount',
    currency: 'JPY',
    value: compact({
      '@type': 'QuantitativeValue',
      ...(exact ? { value: min } : { minValue: min, maxValue: max }),
      unitText: SALARY_UNIT_TEXT[salary.unit],
    }),
  };
}

/** Where the work is: a Place in Japan, or for a フルリモート listing telecommute from Japan. */
function workplaceOf(location: JobPostingInput['location']) {
  if (location?.fullRemote) {
    return {
      jobLocationType: 'TELECOMMUTE',
      applicantLocationRequirements: { '@type': 'Country', name: 'JP' },
    };
  }
  const region = location?.prefecture?.trim() || undefined;
  const locality = location?.detail?.trim() || undefined;
  if (!region && !locality) return {};
  return {
    jobLocation: {
      '@type': 'Place',
      address: compact({
        '@type': 'PostalAddress',
        addressRegion: region,
        addressLocality: locality,
        addressCountry: 'JP',
      }),
    },
  };
}

/**
 * A job listing for Google for Jobs: what it requires (title, description, datePosted,
 * hiringOrganization, jobLocation or TELECOMMUTE with applicantLocationRequirements) and what
 * it recommends (validThrough, employmentType, baseSalary, identifier, directApply). Only for
 * an open listing: a closed one must not carry it (the page leaves it out).
 */
export function jobPostingJsonLd(site: JsonLdSite, input: JobPostingInput): JsonLdObject {
  const url = absoluteUrl(site, input.path);
  const types = [
    ...new Set(
      (input.employmentTypes ?? []).flatMap((t) =>
        isEmploymentType(t) ? [EMPLOYMENT_TYPE_SCHEMA[t]] : [],
      ),
    ),
  ];
  const organization = input.hiringOrganization;
  return compact({
    '@context': CONTEXT,
    '@type': 'JobPosting',
    title: input.title,
    description: input.description,
    url,
    datePosted: isoDateTime(input.datePosted),
    validThrough: isoDateTime(input.validThrough),
    employmentType: types.length > 0 ? types : undefined,
    hiringOrganization: organization
      ? compact({
          '@type': 'Organization',
          name: organization.name,
          sameAs: organization.url ? absoluteUrl(site, organization.url) : undefined,
          logo: organization.logo ? absoluteUrl(site, organization.logo) : undefined,
        })
      : publisherOf(site),
    identifier:
      input.identifier && organization
        ? { '@type': 'PropertyValue', name: organization.name, value: input.identifier }
        : undefined,
    ...workplaceOf(input.location),
    baseSalary: baseSalaryOf(input.salary),
    // Applying happens on the company's site or by e-mail, not on this page (Google: true
    // only when the whole application can be completed on the page itself).
    directApply: false,
  });
}

export type BreadcrumbItem = { name: string; path: string };

/** The trail home → a section's list → an item, as every item page gives it. */
export function itemBreadcrumbJsonLd(
  site: SiteSettings,
  section: BreadcrumbItem,
  item: BreadcrumbItem,
): JsonLdObject {
  return breadcrumbJsonLd(site, [{ name: 'ホーム', path: '/' }, section, item]);
}

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

/** The trail from the home page to this one, e.g. [{ホーム, /}, {記事, /posts}, {title, /posts/id}]. */
export function breadcrumbJsonLd(
  site: SiteSettings,
  items: readonly BreadcrumbItem[],
): JsonLdObject {
  return {
    '@context': CONTEXT,
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) =>
      compact({
        '@type': 'ListItem',
        position: index + 1,
        name: item.name,
        item: absoluteUrl(site, item.path),
      }),
    ),
  };
}

export function organizationJsonLd(
  site: JsonLdSite,
  options: { description?: string | null; sameAs?: readonly string[] } = {},
): JsonLdObject {
  const sameAs = (options.sameAs ?? []).flatMap((u) => absoluteUrl(site, u) ?? []);
  return compact({
    '@context': CONTEXT,
    ...publisherOf(site),
    description: description(options.description),
    sameAs: sameAs.length > 0 ? sameAs : undefined,
  });
}

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

/** The site with its search box (SearchAction on /search?q=…), for the home page. */
export function webSiteJsonLd(
  site: SiteSettings,
  options: { description?: string | null } = {},
): JsonLdObject {
  return compact({
    '@context': CONTEXT,
    '@type': 'WebSite',
    '@id': websiteId(site),
    name: site.siteName,
    url: `${origin(site)}/`,
    description: description(options.description),
    inLanguage: 'ja',
    publisher: { '@id': organizationId(site) },
    potentialAction: {
      '@type': 'SearchAction',
      target: {
        '@type': 'EntryPoint',
        urlTemplate: `${origin(site)}/search?q={search_term_string}`,
      },
      'query-input': 'required name=search_term_string',
    },
  });
}

/**
 * JSON for a <script type="application/ld+json"> element. `<`, `>` and `&` are written as
 * \u escapes (still the same JSON), so text like `</script>` or `<!--` in a title cannot end
 * the element or change how the HTML around it is parsed; U+2028/2029 likewise.
 */
export function serializeJsonLd(data: JsonLdObject | readonly JsonLdObject[]): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
