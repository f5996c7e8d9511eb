import { consoleRoutes } from '@/server/cms/console/console-http';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ endpoint: string }> };

export async function POST(request: Request, { params }: Params): Promise<Response> {
  return consoleRoutes().bulk(request, (await params).endpoint);
}
