import type { MetadataRoute } from 'next';
import { env } from '@/env';

/** The indexable pages. Content areas add their published items here as they are built. */
export const SITEMAP_STATIC_PATHS = ['/'] as const;

export default function sitemap(): MetadataRoute.Sitemap {
  const base = env().SITE_URL;
  return SITEMAP_STATIC_PATHS.map((path) => ({
    url: `${base}${path}`,
    changeFrequency: 'daily',
    priority: 1,
  }));
}
