import type { MetadataRoute } from 'next';
import { env } from '@/env';

export default function robots(): MetadataRoute.Robots {
  return {
    rules: [
      {
        userAgent: '*',
        allow: '/',
        // Search and bookmark pages are crawlable on purpose: their noindex tag is only seen
        // by a crawler allowed to fetch them (a blocked URL can still be indexed from links).
        disallow: ['/admin', '/account', '/api/', '/biz/axis-admin', '/biz/partner-admin'],
      },
    ],
    // The index of /sitemap/0.xml, /sitemap/1.xml … (50,000 URLs each).
    sitemap: `${env().SITE_URL}/sitemap.xml`,
    host: env().SITE_URL,
  };
}
