import type { SiteSettings } from '../metadata';
import {
  CONTEXT,
  DEFAULT_LOGO,
  type JsonLdObject,
  type JsonLdSite,
  absoluteUrl,
  compact,
  description,
  imageObject,
  origin,
} from './core';

/** The publisher and the site: what every page's data names as its owner, and the home page's. */

const organizationId = (site: SiteSettings) => `${origin(site)}/#organization`;
const websiteId = (site: SiteSettings) => `${origin(site)}/#website`;

/** The publisher as Article and media objects name it (in full: a page may carry it alone). */
export function publisherOf(site: JsonLdSite): JsonLdObject {
  return {
    '@type': 'Organization',
    '@id': organizationId(site),
    name: site.siteName,
    url: `${origin(site)}/`,
    logo: imageObject(site, site.logo ?? DEFAULT_LOGO),
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
