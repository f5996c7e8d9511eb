import { privateEpisodeResponse } from '@/server/features/podcast';

// An episode's file through a reader's feed address: 403 once the address is revoked or the
// plan no longer opens it (docs/decisions/062-private-podcast-feeds.md).
export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

type Params = { params: Promise<{ token: string; file: string }> };

async function handler(request: Request, { params }: Params): Promise<Response> {
  const { token, file } = await params;
  return privateEpisodeResponse(request, token, file);
}

export { handler as GET, handler as HEAD };
