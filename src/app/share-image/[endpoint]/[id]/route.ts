import { env } from '@/env';
import { shareImageResponse } from '@/server/features/share/share-image-route';

// A 1200×630 PNG of a published item's title for items without an image of their own
// (docs/decisions/030-share-and-search.md). Read per request: the build never opens the database.
export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ endpoint: string; id: string }> };

export async function GET(request: Request, { params }: Params): Promise<Response> {
  const { endpoint, id } = await params;
  const version = new URL(request.url).searchParams.get('v');
  return shareImageResponse({
    endpoint,
    id,
    version,
    siteName: env().SITE_NAME,
    headers: request.headers,
  });
}
