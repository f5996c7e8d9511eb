import type { MetadataRoute } from 'next';
import { env } from '@/env';

export default function robots(): MetadataRoute.Robots {
  return {
    rules: [
      {
        userAgent: '*',
        allow: '/',
        disallow: [
          '/admin',
          '/account',
          '/api/',
          '/biz/axis-admin',
          '/biz/partner-admin',
          '/posts/bookmark',
          '/search',
        ],
      },
    ],
    // The index of /sitemap/0.xml, /sitemap/1.xml … (50,000 URLs each).
    sitemap: `${env().SITE_URL}/sitemap.xml`,
    host: env().SITE_URL,
  };
}
