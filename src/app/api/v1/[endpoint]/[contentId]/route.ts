import { handleContentApi } from '@/server/services/cms/http';

type Context = { params: Promise<{ endpoint: string; contentId: string }> };

export const dynamic = 'force-dynamic';

async function handler(request: Request, { params }: Context): Promise<Response> {
  const { endpoint, contentId } = await params;
  return handleContentApi(request, endpoint, contentId);
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
