import type { Metadata } from 'next';
import { type FeedLink, feedAlternates } from './feeds';
import { DEFAULT_SHARE_IMAGE, SITE_DESCRIPTION } from './site';

/** Descriptions are cut at 120 characters, then "…" (docs/decisions/000-design-baseline.md). */
export const DESCRIPTION_MAX_LENGTH = 120;

/**
 * Cuts a description for metadata: whitespace collapsed, at most 120 characters (counted as
 * code points, so an emoji or a rare kanji is never split) followed by "…" when cut.
 */
export function truncateDescription(text: string, max = DESCRIPTION_MAX_LENGTH): string {
  const normalized = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(normalized);
  if (chars.length <= max) return normalized;
  return `${chars.slice(0, max).join('').trimEnd()}…`;
}

export type SiteSettings = { siteUrl: string; siteName: string };

/**
 * A path on the site as an absolute URL; another URL as it is. Next.js resolves a path itself,
 * with the same result, but only after trying it as an absolute URL and catching the error: a
 * page's head has about twenty, and those errors took 0.2 ms of every page rendered.
 */
function onSite(url: string, siteUrl: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? siteUrl.replace(/\/+$/, '') + url : url;
}

/** The feeds a head names, at absolute URLs. */
const feedsOnSite = (siteUrl: string, siteName: string, feeds?: readonly FeedLink[]) => {
  const types = feedAlternates(siteName, feeds);
  return {
    'application/rss+xml': types['application/rss+xml'].map((feed) => ({
      ...feed,
      url: onSite(feed.url, siteUrl),
    })),
  };
};

/** The defaults every page inherits (root layout). */
export function siteMetadata({ siteUrl, siteName }: SiteSettings): Metadata {
  const shareImage = { ...DEFAULT_SHARE_IMAGE, url: onSite(DEFAULT_SHARE_IMAGE.url, siteUrl) };
  return {
    metadataBase: new URL(siteUrl),
    title: { default: siteName, template: `%s | ${siteName}` },
    description: truncateDescription(SITE_DESCRIPTION),
    applicationName: siteName,
    alternates: { canonical: onSite('/', siteUrl), types: feedsOnSite(siteUrl, siteName) },
    openGraph: {
      type: 'website',
      locale: 'ja_JP',
      siteName,
      url: onSite('/', siteUrl),
      title: siteName,
      description: truncateDescription(SITE_DESCRIPTION),
      images: [{ ...shareImage, alt: siteName }],
    },
    twitter: {
      card: 'summary_large_image',
      title: siteName,
      description: truncateDescription(SITE_DESCRIPTION),
      images: [shareImage.url],
    },
    formatDetection: { telephone: false, email: false, address: false },
  };
}

export type PageMetadataInput = {
  /** The page's own title; the template adds " | {site name}" (unless `absoluteTitle`). */
  title: string;
  /** The title is the whole <title> (an editor's meta title): no site name added. */
  absoluteTitle?: boolean;
  description?: string | null;
  /** The path of the page (canonical and og:url point at SITE_URL + path). */
  path: string;
  image?: { url: string; width?: number; height?: number; alt?: string } | null;
  noIndex?: boolean;
  /**
   * Feeds the page names in its head beside the site feed (a series page and its episodes name
   * the series feed). A page's `alternates` replaces the layout's, so every page names them all.
   */
  feeds?: readonly FeedLink[];
};

/** Metadata of one page: its title, cut description, canonical URL and share image. */
export function pageMetadata(input: PageMetadataInput, site: SiteSettings): Metadata {
  const description = truncateDescription(input.description ?? SITE_DESCRIPTION);
  const given: NonNullable<PageMetadataInput['image']> = input.image ?? DEFAULT_SHARE_IMAGE;
  const image = { ...given, url: onSite(given.url, site.siteUrl) };
  const fullTitle = input.absoluteTitle ? input.title : `${input.title} | ${site.siteName}`;
  const url = onSite(input.path, site.siteUrl);
  return {
    title: input.absoluteTitle ? { absolute: input.title } : input.title,
    description,
    alternates: {
      canonical: url,
      types: feedsOnSite(site.siteUrl, site.siteName, input.feeds),
    },
    openGraph: {
      type: 'website',
      locale: 'ja_JP',
      siteName: site.siteName,
      url,
      title: fullTitle,
      description,
      images: [{ ...image, alt: image.alt ?? input.title }],
    },
    twitter: { card: 'summary_large_image', title: fullTitle, description, images: [image.url] },
    ...(input.noIndex ? { robots: { index: false, follow: true } } : {}),
  };
}
