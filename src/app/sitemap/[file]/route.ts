import { env } from '@/env';
import { siteContent, usesBuiltInContent } from '@/server/features/content/site-content';
import { readSitemap, sitemapReadOptions } from '@/server/features/seo/sitemap';
import { sitemapXml } from '@/server/features/seo/sitemap-entries';
import { XML_CACHE_CONTROL } from '@/server/features/seo/xml';

export const dynamic = 'force-dynamic';

/** /sitemap/N.xml: the Nth file of published URLs. */
export async function GET(
  _request: Request,
  { params }: { params: Promise<{ file: string }> },
): Promise<Response> {
  const match = /^([0-9]{1,4})\.xml$/.exec((await params).file);
  if (!match) return new Response(null, { status: 404 });
  const entries = await readSitemap(
    siteContent(),
    env().SITE_URL,
    Number(match[1]),
    sitemapReadOptions(usesBuiltInContent()),
  );
  if (entries.length === 0) return new Response(null, { status: 404 });
  return new Response(sitemapXml(entries), {
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'cache-control': XML_CACHE_CONTROL,
    },
  });
}
