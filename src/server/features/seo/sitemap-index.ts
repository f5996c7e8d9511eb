import 'server-only';
import type { ContentClient } from '@/server/features/content';
import { SITEMAP_MAX_URLS, sitemapCount, sitemapIndexXml } from './sitemap-entries';
import { readSitemapSummary, totalSitemapUrls } from './sitemap';
import { XML_CACHE_CONTROL } from './xml';

/** The sitemap index answer: every /sitemap/N.xml the content needs. */
export async function sitemapIndexResponse(
  client: Pick<ContentClient, 'get'>,
  siteUrl: string,
  maxUrls = SITEMAP_MAX_URLS,
  now: Date = new Date(),
): Promise<Response> {
  const summary = await readSitemapSummary(client, { now });
  const count = sitemapCount(totalSitemapUrls(summary), maxUrls);
  return new Response(sitemapIndexXml(siteUrl, count), {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'cache-control': XML_CACHE_CONTROL,
    },
  });
}
