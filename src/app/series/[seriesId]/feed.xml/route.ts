import { env } from '@/env';
import { readSeries } from '@/server/features/access/read';
import { siteContent } from '@/server/features/content/site-content';
import { feedResponse } from '@/server/features/seo/feed';

// A series' own RSS 2.0 feed: its newest posts, gated as the site feed (/feed.xml) is.
// Read per request: the build never opens the database.
export const dynamic = 'force-dynamic';

export async function GET(
  _request: Request,
  { params }: { params: Promise<{ seriesId: string }> },
): Promise<Response> {
  const series = await readSeries((await params).seriesId);
  if (!series) return new Response(null, { status: 404 });
  const { SITE_URL, SITE_NAME } = env();
  return feedResponse(siteContent(), { siteUrl: SITE_URL, siteName: SITE_NAME }, series);
}
