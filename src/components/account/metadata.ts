import type { Metadata } from 'next';
import { env } from '@/env';
import { pageMetadata } from '@/lib/metadata';

/** Account screens: the site's metadata with their own title, never indexed. */
export function accountMetadata(title: string, path: string): Metadata {
  const { SITE_URL, SITE_NAME } = env();
  return pageMetadata({ title, path, noIndex: true }, { siteUrl: SITE_URL, siteName: SITE_NAME });
}
