import { handleContentApi } from '@/server/services/cms/http';

type Context = { params: Promise<{ endpoint: string }> };

export const dynamic = 'force-dynamic';

async function handler(request: Request, { params }: Context): Promise<Response> {
  const { endpoint } = await params;
  return handleContentApi(request, endpoint);
}

export { handler as GET, handler as POST, handler as PUT, handler as PATCH, handler as DELETE };
