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
    sitemap: `${env().SITE_URL}/sitemap.xml`,
    host: env().SITE_URL,
  };
}
