import { env } from '@/env';
import { siteContent } from '@/server/features/content/site-content';
import { feedResponse } from '@/server/features/seo/feed';

// RSS 2.0 of the newest posts; members' posts give their title and description only.
// Read per request: the build never opens the database.
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const { SITE_URL, SITE_NAME } = env();
  return feedResponse(siteContent(), { siteUrl: SITE_URL, siteName: SITE_NAME });
}
