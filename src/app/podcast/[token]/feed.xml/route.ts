import { privateFeedResponse } from '@/server/features/podcast';

// A reader's private podcast feed: the token is looked up on every request
// (docs/decisions/062-private-podcast-feeds.md).
export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ token: string }> };

export async function GET(_request: Request, { params }: Params): Promise<Response> {
  return privateFeedResponse((await params).token);
}
