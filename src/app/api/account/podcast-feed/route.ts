import { podcastFeedPost } from '@/server/features/podcast';

export const dynamic = 'force-dynamic';

const handle = podcastFeedPost();

export async function POST(request: Request): Promise<Response> {
  return handle(request);
}
