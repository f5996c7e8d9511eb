import { env } from '@/env';
import { siteContent } from '@/server/features/content/site-content';
import { sitemapIndexResponse } from '@/server/features/seo/sitemap-index';

// /sitemap.xml is a sitemap index of /sitemap/0.xml, /sitemap/1.xml … (50,000 URLs each),
// so it stays valid however much content there is. Read per request.
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return sitemapIndexResponse(siteContent(), env().SITE_URL);
}
