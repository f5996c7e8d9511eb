import { serveProtectedMedia } from '@/server/storage/serve';

type Context = { params: Promise<{ path: string[] }> };

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

async function handler(request: Request, { params }: Context): Promise<Response> {
  return serveProtectedMedia(request, (await params).path);
}

export { handler as GET, handler as HEAD };
