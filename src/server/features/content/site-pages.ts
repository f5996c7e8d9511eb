import 'server-only';
import { cache } from 'react';
import { findEndpoint } from '@/lib/cms/model';
import { type SITE_PAGE_ENDPOINTS } from '@/lib/site-pages';
import { htmlToText } from '@/lib/text/html-to-text';
import { isContentRequestError } from './client';
import { type SitePage, sitePageSchema } from './schemas';
import { siteContent } from './site-content';

/** The site's information pages (the list is in src/lib/site-pages.ts). */
export type SitePageEndpoint = (typeof SITE_PAGE_ENDPOINTS)[number];

/** Where each information page is served. */
export function sitePagePath(endpoint: SitePageEndpoint): string {
  return endpoint === 'biz-about' ? '/biz/about' : `/${endpoint}`;
}

/** The page's name in the content model, for the title while the page has no content. */
export function sitePageLabel(endpoint: SitePageEndpoint): string {
  return findEndpoint(endpoint)?.label ?? endpoint;
}

/**
 * The page's content, or null when the service has none (404: never published, or the
 * endpoint does not exist on a hosted CMS). Once per request: metadata and page share it.
 */
export const findSitePage = cache(async (endpoint: SitePageEndpoint): Promise<SitePage | null> => {
  try {
    return await siteContent().getObject({ endpoint, schema: sitePageSchema });
  } catch (error) {
    if (isContentRequestError(error) && error.status === 404) return null;
    throw error;
  }
});

export type BodySection = { before: string; section: string; after: string };

const H2 = /<h2\b[^>]*>([\s\S]*?)<\/h2\s*>/gi;

/**
 * Cuts rich text around the first h2 whose text matches: what comes before it, the heading
 * with everything up to the next h2, and the rest. Null when no heading matches. The parts are
 * sanitised again on render, so a heading nested in other markup only costs the layout.
 */
export function splitAtSection(html: string, heading: RegExp): BodySection | null {
  const headings = [...html.matchAll(H2)];
  const index = headings.findIndex((match) =>
    heading.test(htmlToText(match[1] ?? '', { whitespace: 'collapse' })),
  );
  const start = headings[index];
  if (index < 0 || !start) return null;
  const end = headings[index + 1]?.index ?? html.length;
  return {
    before: html.slice(0, start.index),
    section: html.slice(start.index, end),
    after: html.slice(end),
  };
}

/** The privacy part of the terms (the sign-up form links to /terms#privacy). */
export const PRIVACY_HEADING = /個人情報|プライバシー/;
