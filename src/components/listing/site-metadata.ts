import type { Metadata } from 'next';
import { env } from '@/env';
import { type PageMetadataInput, pageMetadata } from '@/lib/metadata';

/** Page metadata on the site's settings (SITE_URL, SITE_NAME). */
export function sitePageMetadata(input: PageMetadataInput): Metadata {
  const { SITE_URL, SITE_NAME } = env();
  return pageMetadata(input, { siteUrl: SITE_URL, siteName: SITE_NAME });
}

/** The site as JSON-LD builders take it (src/lib/json-ld.ts). */
export function jsonLdSite(): { siteUrl: string; siteName: string } {
  const { SITE_URL, SITE_NAME } = env();
  return { siteUrl: SITE_URL, siteName: SITE_NAME };
}
