import { type SiteSettings, truncateDescription } from '../metadata';

/**
 * schema.org structured data (JSON-LD) for the site's pages, as plain objects; render them
 * with <JsonLd> (src/components/seo/json-ld.tsx). Every URL is absolute on SITE_URL. The
 * builders take what the access policy lets out and nothing more: for members' content they
 * mark the paywall (isAccessibleForFree: false, and for articles the `.paywalled` part, as
 * Google's paywalled-content guidelines ask) and never carry a gated media URL.
 *
 * One module per family of types in this folder (article, media, job-posting, breadcrumbs,
 * organization, people, content-item, authors-and-series, serialize); this one is what they
 * all share: the value types and how URLs, dates, images and text are written.
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

export type ImageInput = JsonLdImage | string | null | undefined;

export const DEFAULT_LOGO: JsonLdImage = { url: '/apple-icon.png', width: 180, height: 180 };

export const CONTEXT = 'https://schema.org';

export const origin = (site: SiteSettings) => site.siteUrl.replace(/\/+$/, '');

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

export function imageObject(site: SiteSettings, image: JsonLdImage): JsonLdObject | undefined {
  const url = absoluteUrl(site, image.url);
  if (!url) return undefined;
  return {
    '@type': 'ImageObject',
    url,
    ...(image.width ? { width: image.width } : {}),
    ...(image.height ? { height: image.height } : {}),
  };
}

export function imageUrls(site: SiteSettings, images: readonly ImageInput[] | undefined): string[] {
  return (images ?? []).flatMap((image) => {
    if (!image) return [];
    const url = absoluteUrl(site, typeof image === 'string' ? image : image.url);
    return url ? [url] : [];
  });
}

export function description(text: string | null | undefined): string | undefined {
  const cut = text ? truncateDescription(text) : '';
  return cut || undefined;
}

/** Drops undefined members so the JSON stays small and free of `null` noise. */
export function compact<T extends Record<string, JsonLdValue | undefined>>(object: T): T {
  const kept: Record<string, JsonLdValue> = {};
  for (const key of Object.keys(object)) if (object[key] !== undefined) kept[key] = object[key];
  return kept as T;
}
