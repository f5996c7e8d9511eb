import { servePublicUpload, pathRouteHandler } from '@/server/platform/storage/serve';

export const dynamic = 'force-dynamic';
export const runtime = 'nodejs';

const handler = pathRouteHandler(servePublicUpload);

export { handler as GET, handler as HEAD };
