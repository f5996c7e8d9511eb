import { consoleRoutes } from '@/server/cms/console/console-http';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ endpoint: string; contentId: string }> };

export async function POST(request: Request, { params }: Params): Promise<Response> {
  const { endpoint, contentId } = await params;
  return consoleRoutes().presence(request, endpoint, contentId);
}
