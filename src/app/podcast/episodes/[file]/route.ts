import { publicEpisodeResponse } from '@/server/features/podcast';

// A public episode's protected file, for podcast apps (docs/decisions/062-private-podcast-feeds.md).
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ file: string }> };

async function handler(request: Request, { params }: Params): Promise<Response> {
  return publicEpisodeResponse(request, (await params).file);
}

export { handler as GET, handler as HEAD };
