import { consoleRoutes } from '@/server/cms/console/console-http';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ endpoint: string; contentId: string }> };

export async function PUT(request: Request, { params }: Params): Promise<Response> {
  const { endpoint, contentId } = await params;
  return consoleRoutes().save(request, endpoint, contentId);
}

export async function DELETE(request: Request, { params }: Params): Promise<Response> {
  const { endpoint, contentId } = await params;
  return consoleRoutes().remove(request, endpoint, contentId);
}
