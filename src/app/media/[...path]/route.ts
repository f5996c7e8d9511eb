import { serveProtectedMedia, pathRouteHandler } from '@/server/platform/storage/serve';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const handler = pathRouteHandler(serveProtectedMedia);

export { handler as GET, handler as HEAD };
