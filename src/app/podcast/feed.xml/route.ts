import { publicFeedResponse } from '@/server/features/podcast';

// The public podcast feed: the audio episodes open to everyone (docs/decisions/062-private-podcast-feeds.md).
// Read per request: the build never opens the database.
export const dynamic = 'force-dynamic';

export function GET(): Promise<Response> {
  return publicFeedResponse();
}
