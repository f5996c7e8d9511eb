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

/** The defaults every page inherits (root layout). */
export function siteMetadata({ siteUrl, siteName }: SiteSettings): Metadata {
  return {
    metadataBase: new URL(siteUrl),
    title: { default: siteName, template: `%s | ${siteName}` },
    description: truncateDescription(SITE_DESCRIPTION),
    applicationName: siteName,
    alternates: { canonical: '/', types: feedAlternates(siteName) },
    openGraph: {
      type: 'website',
      locale: 'ja_JP',
      siteName,
      url: '/',
      title: siteName,
      description: truncateDescription(SITE_DESCRIPTION),
      images: [{ ...DEFAULT_SHARE_IMAGE, alt: siteName }],
    },
    twitter: {
      card: 'summary_large_image',
      title: siteName,
      description: truncateDescription(SITE_DESCRIPTION),
      images: [DEFAULT_SHARE_IMAGE.url],
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
  const image: NonNullable<PageMetadataInput['image']> = input.image ?? DEFAULT_SHARE_IMAGE;
  const fullTitle = input.absoluteTitle ? input.title : `${input.title} | ${site.siteName}`;
  return {
    title: input.absoluteTitle ? { absolute: input.title } : input.title,
    description,
    alternates: { canonical: input.path, types: feedAlternates(site.siteName, input.feeds) },
    openGraph: {
      type: 'website',
      locale: 'ja_JP',
      siteName: site.siteName,
      url: input.path,
      title: fullTitle,
      description,
      images: [{ ...image, alt: image.alt ?? input.title }],
    },
    twitter: { card: 'summary_large_image', title: fullTitle, description, images: [image.url] },
    ...(input.noIndex ? { robots: { index: false, follow: true } } : {}),
  };
}
