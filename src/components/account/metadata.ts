import type { Metadata } from 'next';
import { sitePageMetadata } from '@/components/listing/site-metadata';

/** Account screens: the site's metadata with their own title, never indexed. */
export function accountMetadata(title: string, path: string): Metadata {
  return sitePageMetadata({ title, path, noIndex: true });
}
